/** One searchable passage of a document: the heading it sits under and its text. */
export interface TChunk {
  heading: string;
  content: string;
}

const MAX_CHUNK_CHARS = 1200;

/**
 * Splits a document into passages for retrieval: markdown headings start a new passage (and name
 * it), paragraphs are kept whole where they fit, and a long paragraph is cut at sentence ends.
 */
export function chunkDocument(text: string, title: string): TChunk[] {
  const chunks: TChunk[] = [];
  let heading = title;
  let buffer: string[] = [];
  let size = 0;
  const flush = () => {
    const content = buffer.join('\n\n').trim();
    if (content !== '') chunks.push({ heading, content });
    buffer = [];
    size = 0;
  };
  const add = (paragraph: string) => {
    if (size + paragraph.length > MAX_CHUNK_CHARS && size > 0) flush();
    buffer.push(paragraph);
    size += paragraph.length + 2;
  };
  for (const block of text.split(/\n\s*\n/)) {
    const lines = block.split('\n');
    const headingLine = lines[0]?.match(/^#{1,6}\s+(.+)$/);
    if (headingLine?.[1]) {
      flush();
      heading = headingLine[1].replace(/[*_`]/g, '').trim();
      lines.shift();
    }
    const paragraph = lines.join('\n').trim();
    if (paragraph === '') continue;
    if (paragraph.length <= MAX_CHUNK_CHARS) {
      add(paragraph);
      continue;
    }
    for (const sentence of paragraph.match(/[^.!?\n]+[.!?]*\s*|\n/g) ?? [paragraph]) add(sentence.trim());
  }
  flush();
  return chunks;
}
