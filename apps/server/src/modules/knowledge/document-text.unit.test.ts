import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import JSZip from 'jszip';
import { MESSAGES } from '@switchboard/contracts';
import { AppError } from '../../lib/app-error';
import { wellFormed } from '../../lib/text';
import { pdfWithText } from '../../../test/document-files';
import { chunkDocument } from './chunking';
import { documentFileNameOf, extractDocumentText } from './document-text';

/** A one-paragraph .docx written by Info-ZIP `zip -fz`: ZIP64 end records, and each part's offset in a ZIP64 extra field. */
const ZIP64_DOCX = Buffer.from(
  'UEsDBC0AAAAIAMxdfV2TR0GD//////////8TABQAW0NvbnRlbnRfVHlwZXNdLnhtbAEAEAAUAQAAAAAAAKoAAAAAAAAAdY9JDsIwDEWvEnmL2hQWCKGmXTCcoBwgSt1BpEmUmKrcnnRYIVja/30/OS+nQbMRfeitEbBPM2BolK170wp4VPfkBGWRV2+HgUXUBAEdkTtzHlSHgwypdWhi0lg/SIqjb7mT6ilb5IcsO3JlDaGhhOYbUORXbORLE7tNcb1qPeoA7LKCs0uAdE73SlLM+WjqL0uyGdLYXJjQ9S7sIgD8p2FO/gu2Hl/eLD5QSwMELQAAAAgAzF19XTZX3tz//////////wsAFABfcmVscy8ucmVscwEAEAAYAQAAAAAAAKIAAAAAAAAAjc87DsIwDAbgq0TeqQsDQqhpF4TUFZUDRImbRjQPJeF1ezIwUMTAaPv3Z7npHnZmN4rJeMdhXdXAyEmvjNMczsNxtYOubU40i1wSaTIhsbLiEocp57BHTHIiK1LlA7kyGX20IpcyagxCXoQm3NT1FuOnAUuT9YpD7NUa2PAM9I/tx9FIOnh5teTyjxNfiSKLqClzuPuoUL3bVWEB2wYXL7YvUEsDBC0AAAAIAMxdfV295YQ4//////////8RABQAd29yZC9kb2N1bWVudC54bWwBABAA8QAAAAAAAAC0AAAAAAAAAEWOsW7DMAxEf4XQXsvtEASG7WzZGmRIs6sSbQuwRIFSovrvIzlDl3cgSN5df/pzKzyRoyU/iM+mFYBek7F+HsTP7fxxFKexz50h/XDoE5R7H7s8iCWl0EkZ9YJOxYYC+rKbiJ1KZeRZZmITmDTGWOzcKr/a9iCdsl5Uy18yW9VQwRVp/CYFk2XMal07SAvC/XoBj2giqKIZNHKyk9UqIWApvsGGipte1vdK3hl2viPkf/3xBVBLAQIeAy0AAAAIAMxdfV2TR0GDqgAAAP////8TAAwAAAAAAAEAAACkgQAAAABbQ29udGVudF9UeXBlc10ueG1sAQAIABQBAAAAAAAAUEsBAh4DLQAAAAgAzF19XTZX3tyiAAAA/////wsADAAAAAAAAQAAAKSB7wAAAF9yZWxzLy5yZWxzAQAIABgBAAAAAAAAUEsBAh4DLQAAAAgAzF19Xb3lhDi0AAAA/////xEADAAAAAAAAQAAAKSBzgEAAHdvcmQvZG9jdW1lbnQueG1sAQAIAPEAAAAAAAAAUEsGBiwAAAAAAAAAHgMtAAAAAAAAAAAAAwAAAAAAAAADAAAAAAAAAN0AAAAAAAAAxQIAAAAAAABQSwYHAAAAAKIDAAAAAAAAAQAAAFBLBQYAAAAAAwADAN0AAAD/////AAA=',
  'base64',
);

async function docxOfBody(bodyXml: string): Promise<Buffer> {
  const zip = new JSZip();
  zip.file('_rels/.rels', '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>');
  zip.file('word/document.xml', `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${bodyXml}</w:body></w:document>`);
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/** The AppError a promise rejects with. */
async function refusalOf(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

describe('documentFileNameOf (an upload with a NUL in its name was a 500)', () => {
  it('drops control characters and the marks that reorder text, and keeps the rest', () => {
    expect(documentFileNameOf('kea\u0000-rou\u0007ter\u0085.txt')).toBe('kea-router.txt');
    expect(documentFileNameOf('invoice\u202Efdp.exe')).toBe('invoicefdp.exe');
    expect(documentFileNameOf('  Émeu firewall 😀.pdf ')).toBe('Émeu firewall 😀.pdf');
  });

  it('makes a lone surrogate well formed (jsonb refuses one)', () => {
    expect(documentFileNameOf('a\uD83Db.md')).toBe('a\uFFFDb.md');
  });

  it('keeps only the last part of a path, and nothing of a name that is only a path', () => {
    expect(documentFileNameOf('../../etc/takahe.md')).toBe('takahe.md');
    expect(documentFileNameOf('C:\\Users\\me\\kiwi.docx')).toBe('kiwi.docx');
    for (const empty of ['', '\u0001\u0002', '../', '..', '.', '  ']) expect(documentFileNameOf(empty)).toBe('');
  });

  it('cuts a long name to 200 characters, keeping its extension and whole emoji', () => {
    const name = documentFileNameOf(`${'😀'.repeat(150)}.docx`);
    expect(name.length).toBeLessThanOrEqual(200);
    expect(name.endsWith('….docx')).toBe(true);
    expect(name).toBe(wellFormed(name));
  });
});

describe('extractDocumentText of Word packages', () => {
  it('reads a ZIP64 package', async () => {
    expect(await extractDocumentText(ZIP64_DOCX, 'docx')).toBe('Moa firewall: the VPN needs a new certificate every year.');
  });

  it('words a broken package as unreadable', async () => {
    const truncated = (await docxOfBody('<w:p><w:r><w:t>Kakapo</w:t></w:r></w:p>')).subarray(0, 200);
    expect(await refusalOf(extractDocumentText(truncated, 'docx'))).toMatchObject({ statusCode: 400, detail: MESSAGES.documents.cannotRead });
  });
});

describe('the worker thread that reads PDFs and Word documents', () => {
  it('stops a reading that takes longer than its time bound', async () => {
    const pdf = pdfWithText(['Tui switch stack: reload both members together.']);
    expect(await extractDocumentText(pdf, 'pdf')).toContain('Tui switch stack');
    expect(await refusalOf(extractDocumentText(pdf, 'pdf', { timeoutMs: 1, heapMb: 512, arrayMb: 64 }))).toMatchObject({ statusCode: 413, detail: MESSAGES.documents.tooComplex });
  });

  it('reads documents sent at once one after another, and gives the next its turn after a refusal', async () => {
    const pdf = pdfWithText(['Weka NAS: replace the failed disk in bay 2.']);
    const docx = await docxOfBody('<w:p><w:r><w:t>Weka router</w:t></w:r></w:p>');
    const [refused, ...read] = await Promise.allSettled([
      extractDocumentText(pdf, 'pdf', { timeoutMs: 1, heapMb: 512, arrayMb: 64 }),
      extractDocumentText(pdf, 'pdf'),
      extractDocumentText(docx, 'docx'),
      extractDocumentText(pdf, 'pdf'),
    ]);
    expect(refused).toMatchObject({ status: 'rejected', reason: { detail: MESSAGES.documents.tooComplex } });
    expect(read.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value : 'refused'))).toEqual(['Weka NAS: replace the failed disk in bay 2.', 'Weka router', 'Weka NAS: replace the failed disk in bay 2.']);
  });

  // Regression: uploads waiting for the one extraction slot queued without bound, each holding its file (up to 10 MB),
  // so a burst of uploads grew a replica past its memory. Past the bound a newcomer is told to try again shortly.
  it('lets four documents wait their turn beside the one being read, and asks a sixth to try again shortly', async () => {
    const pdf = pdfWithText(['Kea firewall: restart the VPN service.']);
    const outcomes = await Promise.allSettled([0, 1, 2, 3, 4, 5].map(() => extractDocumentText(pdf, 'pdf')));
    expect(outcomes.slice(0, 5).map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'fulfilled']);
    expect(outcomes[5]).toMatchObject({ status: 'rejected', reason: { statusCode: 503, detail: MESSAGES.documents.busy, extra: { retryAfterSeconds: 30 } } });
    // The refusal took no slot: the next document is read.
    expect(await extractDocumentText(pdf, 'pdf')).toContain('Kea firewall');
  });

  it('stops a reading that needs more memory than its heap bound, and the server process carries on', async () => {
    // 3 MB of small paragraphs packs only 15 times: within DOCX_LIMITS, but mammoth needs hundreds of MB for it.
    const dense = await docxOfBody(Array.from({ length: 80_000 }, (_, index) => `<w:p><w:r><w:t>${index}</w:t></w:r></w:p>`).join(''));
    expect(await refusalOf(extractDocumentText(dense, 'docx', { timeoutMs: 30_000, heapMb: 32, arrayMb: 64 }))).toMatchObject({ statusCode: 413, detail: MESSAGES.documents.tooComplex });
    expect(await extractDocumentText(await docxOfBody('<w:p><w:r><w:t>Still here</w:t></w:r></w:p>'), 'docx')).toBe('Still here');
  }, 60_000);
});

/** A one-page PDF whose page is this content, deflated (a page that unpacks to far more than the file's size). */
function pdfWithDeflatedPage(content: string): Buffer {
  const packed = deflateSync(Buffer.from(content, 'latin1'));
  const parts = [Buffer.from('%PDF-1.4\n', 'latin1')];
  const offsets: number[] = [];
  const objects: Array<string | Buffer> = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    Buffer.concat([Buffer.from(`<< /Length ${packed.length} /Filter /FlateDecode >>\nstream\n`, 'latin1'), packed, Buffer.from('\nendstream', 'latin1')]),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let length = parts[0]?.length ?? 0;
  objects.forEach((object, index) => {
    offsets.push(length);
    const part = Buffer.concat([Buffer.from(`${index + 1} 0 obj\n`, 'latin1'), typeof object === 'string' ? Buffer.from(object, 'latin1') : object, Buffer.from('\nendobj\n', 'latin1')]);
    parts.push(part);
    length += part.length;
  });
  const table = offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  parts.push(Buffer.from(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${table}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`, 'latin1'));
  return Buffer.concat(parts);
}

describe('the bound on byte arrays in the worker (a PDF page that unpacks to a gigabyte took 2 GB outside the heap)', () => {
  it('refuses a PDF whose page unpacks past the bound, and reads it within a larger one', async () => {
    const page = pdfWithDeflatedPage('BT /F1 12 Tf 72 700 Td (Pukeko printer: clear the queue) Tj ET\n'.repeat(40_000));
    expect(page.length).toBeLessThan(100 * 1024);
    expect(await refusalOf(extractDocumentText(page, 'pdf', { timeoutMs: 30_000, heapMb: 512, arrayMb: 1 }))).toMatchObject({ statusCode: 413, detail: MESSAGES.documents.tooComplex });
    expect(await extractDocumentText(page, 'pdf', { timeoutMs: 30_000, heapMb: 512, arrayMb: 8 })).toContain('Pukeko printer: clear the queue');
  }, 60_000);
});

describe('chunkDocument', () => {
  // Review s29 #3: a heading with nothing under it was dropped, so a Markdown file of headings alone made no passage at all.
  it('keeps a heading with nothing under it as a passage of its own, and headings with text as before', () => {
    expect(chunkDocument('# Wombat VPN\n\n## Numbat firewall\n\n### Quokka proxy', 'Notes')).toEqual([
      { heading: 'Wombat VPN', content: 'Wombat VPN' },
      { heading: 'Numbat firewall', content: 'Numbat firewall' },
      { heading: 'Quokka proxy', content: 'Quokka proxy' },
    ]);
    expect(chunkDocument('# Printers\n\n## Zebra\n\nRecalibrate it.\n\n## Empty', 'Notes')).toEqual([
      { heading: 'Printers', content: 'Printers' },
      { heading: 'Zebra', content: 'Recalibrate it.' },
      { heading: 'Empty', content: 'Empty' },
    ]);
    expect(chunkDocument('Intro text.\n\n# Next\n\nMore text.', 'Notes')).toEqual([
      { heading: 'Notes', content: 'Intro text.' },
      { heading: 'Next', content: 'More text.' },
    ]);
  });

  it('cuts a sentence longer than a passage into passages of at most 1,200 characters, never inside an emoji', () => {
    const words = Array.from({ length: 3000 }, (_, index) => `word${index}`).join(' ');
    const noSpaces = `a${'😀'.repeat(2000)}`;
    for (const text of [words, noSpaces]) {
      const chunks = chunkDocument(text, 'Title');
      expect(chunks.length).toBeGreaterThan(1);
      for (const chunk of chunks) {
        expect(chunk.content.length).toBeLessThanOrEqual(1200);
        expect(chunk.content).toBe(wellFormed(chunk.content));
      }
      expect(chunks.map((chunk) => chunk.content).join('').replace(/\s+/g, '')).toBe(text.replace(/\s+/g, ''));
    }
  });
});
