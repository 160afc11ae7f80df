/** One searchable passage of a document: the heading it sits under and its text. */
export interface TChunk {
  heading: string;
  content: string;
}

const MAX_CHUNK_CHARS = 1200;

/**
 * A sentence cut into pieces of at most a passage, at a space where there is one in the second half: a line of a
 * million characters without a full stop would otherwise be one passage, which search cannot rank and PostgreSQL's
 * tsvector of it may not hold.
 */
function piecesOf(sentence: string): string[] {
  const pieces: string[] = [];
  let start = 0;
  while (sentence.length - start > MAX_CHUNK_CHARS) {
    const space = sentence.lastIndexOf(' ', start + MAX_CHUNK_CHARS);
    let end = space > start + MAX_CHUNK_CHARS / 2 ? space : start + MAX_CHUNK_CHARS;
    // Never between the two halves of a character outside the BMP (an emoji).
    if (/[\uD800-\uDBFF]/.test(sentence.charAt(end - 1))) end -= 1;
    pieces.push(sentence.slice(start, end).trim());
    start = end;
  }
  pieces.push(sentence.slice(start).trim());
  return pieces.filter((piece) => piece !== '');
}

/**
 * Splits a document into passages for retrieval: markdown headings start a new passage (and name
 * it), paragraphs are kept whole where they fit, and a long paragraph is cut at sentence ends. A
 * heading with nothing under it is a passage of its own: a file of headings alone (an outline) had
 * no passage, so nothing could find it (review s29).
 */
export function chunkDocument(text: string, title: string): TChunk[] {
  const chunks: TChunk[] = [];
  let heading = title;
  /** A heading of the text (not the title) that has no passage under it yet. */
  let isHeadingBare = false;
  let buffer: string[] = [];
  let size = 0;
  const flush = () => {
    const content = buffer.join('\n\n').trim();
    if (content !== '') {
      chunks.push({ heading, content });
      isHeadingBare = false;
    }
    buffer = [];
    size = 0;
  };
  /** Before the next heading or the end: the heading left bare becomes its own passage. */
  const closeHeading = () => {
    flush();
    if (isHeadingBare) chunks.push({ heading, content: heading });
    isHeadingBare = false;
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
      closeHeading();
      heading = headingLine[1].replace(/[*_`]/g, '').trim();
      // A heading of markup alone ("# **") has no words to find it by.
      isHeadingBare = heading !== '';
      lines.shift();
    }
    const paragraph = lines.join('\n').trim();
    if (paragraph === '') continue;
    if (paragraph.length <= MAX_CHUNK_CHARS) {
      add(paragraph);
      continue;
    }
    for (const sentence of paragraph.match(/[^.!?\n]+[.!?]*\s*|\n/g) ?? [paragraph]) for (const piece of piecesOf(sentence.trim())) add(piece);
  }
  closeHeading();
  return chunks;
}
