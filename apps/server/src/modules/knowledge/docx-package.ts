import { inflateRawSync } from 'node:zlib';
import { MESSAGES } from '@switchboard/contracts';
import { AppError } from '../../lib/app-error';

/**
 * What a .docx may unpack to before mammoth reads it. A .docx is a zip: 300 KB of it can hold 100 MB of XML, which
 * held a core for minutes and took gigabytes (the review's zip bomb). mammoth's cost grows with the XML it parses, so
 * the XML parts are bounded; 20 MB is far above the XML of a document with the 2,000,000 characters of text we keep.
 */
export const DOCX_LIMITS = {
  /** The XML parts (document, styles, numbering, notes, relationships) together, unpacked. */
  xmlBytes: 20 * 1024 * 1024,
  /** A part larger than `ratioFromBytes` unpacked may be at most `ratio` times its packed size: Word's XML packs 5–20×. */
  ratio: 100,
  ratioFromBytes: 1024 * 1024,
  /** XML parts in the package: a long report with charts has a few hundred. */
  parts: 5000,
} as const;

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_END_OF_CENTRAL = 0x06064b50;
const STORED = 0;
const DEFLATED = 8;
const UTF8_NAME_FLAG = 0x0800;

interface TZipEntry {
  /** The name's bytes as the package holds them, and whether they are UTF-8 (flag bit 11). */
  rawName: Buffer;
  isUtf8Name: boolean;
  isEncrypted: boolean;
  method: number;
  compressedSize: number;
  declaredSize: number;
  localHeaderOffset: number;
}

const unreadable = () => new AppError('validation', MESSAGES.documents.cannotRead);
const tooLarge = () => new AppError('file_size', MESSAGES.documents.unpackedTooLarge);

/** A little-endian reader that refuses to read outside the buffer (a broken or hostile package is unreadable, not a crash). */
function readerOf(bytes: Buffer) {
  const inside = (offset: number, length: number) => {
    if (!Number.isSafeInteger(offset) || offset < 0 || offset + length > bytes.length) throw unreadable();
  };
  return {
    u16: (offset: number) => (inside(offset, 2), bytes.readUInt16LE(offset)),
    u32: (offset: number) => (inside(offset, 4), bytes.readUInt32LE(offset)),
    u64: (offset: number) => (inside(offset, 8), Number(bytes.readBigUInt64LE(offset))),
    slice: (offset: number, length: number) => (inside(offset, length), bytes.subarray(offset, offset + length)),
  };
}

/** Where the central directory starts and ends (ZIP64 end records included: some writers add them to small files). */
function centralDirectoryOf(bytes: Buffer): { start: number; end: number } {
  const read = readerOf(bytes);
  let endRecord = -1;
  for (let offset = bytes.length - 22; offset >= Math.max(0, bytes.length - 22 - 0xffff); offset -= 1) {
    if (bytes.readUInt32LE(offset) === END_OF_CENTRAL) {
      endRecord = offset;
      break;
    }
  }
  if (endRecord < 0) throw unreadable();
  let size = read.u32(endRecord + 12);
  let start = read.u32(endRecord + 16);
  if (size === 0xffffffff || start === 0xffffffff || read.u16(endRecord + 10) === 0xffff) {
    if (read.u32(endRecord - 20) !== ZIP64_LOCATOR) throw unreadable();
    const zip64End = read.u64(endRecord - 20 + 8);
    if (read.u32(zip64End) !== ZIP64_END_OF_CENTRAL) throw unreadable();
    size = read.u64(zip64End + 40);
    start = read.u64(zip64End + 48);
  }
  return { start, end: start + size };
}

/** A ZIP64 entry keeps in its extra field (id 1) each size or offset that is 0xFFFFFFFF in the header, in this order. */
function withZip64Fields(entry: TZipEntry, extra: Buffer): TZipEntry {
  const read = readerOf(extra);
  for (let offset = 0; offset + 4 <= extra.length; offset += 4 + read.u16(offset + 2)) {
    if (read.u16(offset) !== 1) continue;
    let field = offset + 4;
    const next = () => {
      const value = read.u64(field);
      field += 8;
      return value;
    };
    return {
      ...entry,
      declaredSize: entry.declaredSize === 0xffffffff ? next() : entry.declaredSize,
      compressedSize: entry.compressedSize === 0xffffffff ? next() : entry.compressedSize,
      localHeaderOffset: entry.localHeaderOffset === 0xffffffff ? next() : entry.localHeaderOffset,
    };
  }
  return entry;
}

/** The parts mammoth parses as XML; it reads pictures only when converting to HTML, never for raw text. */
const isXmlPart = (name: string) => /\.(xml|rels)$/i.test(name);

/** The XML parts the package's central directory lists (at most DOCX_LIMITS.parts of them). */
function xmlPartsOf(bytes: Buffer): TZipEntry[] {
  const read = readerOf(bytes);
  const { start, end } = centralDirectoryOf(bytes);
  if (end > bytes.length) throw unreadable();
  const entries: TZipEntry[] = [];
  for (let offset = start; offset < end; ) {
    if (read.u32(offset) !== CENTRAL_HEADER) throw unreadable();
    const flags = read.u16(offset + 8);
    const nameLength = read.u16(offset + 28);
    const extraLength = read.u16(offset + 30);
    const commentLength = read.u16(offset + 32);
    const rawName = read.slice(offset + 46, nameLength);
    const isUtf8Name = (flags & UTF8_NAME_FLAG) !== 0;
    if (isXmlPart(rawName.toString(isUtf8Name ? 'utf8' : 'latin1'))) {
      if (entries.length >= DOCX_LIMITS.parts) throw tooLarge();
      const entry: TZipEntry = {
        rawName,
        isUtf8Name,
        isEncrypted: (flags & 1) !== 0,
        method: read.u16(offset + 10),
        compressedSize: read.u32(offset + 20),
        declaredSize: read.u32(offset + 24),
        localHeaderOffset: read.u32(offset + 42),
      };
      entries.push(withZip64Fields(entry, read.slice(offset + 46 + nameLength, extraLength)));
    }
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** The entry's unpacked bytes, never more than `budget` of them (the sizes a package declares may lie). */
function unpack(bytes: Buffer, entry: TZipEntry, budget: number): Buffer {
  const read = readerOf(bytes);
  if (entry.isEncrypted) throw unreadable();
  const header = entry.localHeaderOffset;
  if (read.u32(header) !== LOCAL_HEADER) throw unreadable();
  const packed = read.slice(header + 30 + read.u16(header + 26) + read.u16(header + 28), entry.compressedSize);
  if (entry.method === STORED) {
    if (packed.length > budget) throw tooLarge();
    return packed;
  }
  if (entry.method !== DEFLATED) throw unreadable();
  try {
    return inflateRawSync(packed, { maxOutputLength: Math.max(1, budget) });
  } catch (error) {
    // Node stops inflating at maxOutputLength with ERR_BUFFER_TOO_LARGE; anything else is a broken stream.
    if (error instanceof Error && 'code' in error && error.code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge();
    throw unreadable();
  }
}

/** CRC-32 (the zip's), table-driven. */
const CRC_TABLE = Array.from({ length: 256 }, (_, index) => {
  let value = index;
  for (let bit = 0; bit < 8; bit += 1) value = value & 1 ? 0xedb88320 ^ (value >>> 1) : value >>> 1;
  return value >>> 0;
});
function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** A zip of these parts, stored (not compressed): its sizes are the ones measured here. */
function storedZipOf(parts: ReadonlyArray<{ entry: TZipEntry; content: Buffer }>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const { entry, content } of parts) {
    const crc = crc32(content);
    const flags = entry.isUtf8Name ? UTF8_NAME_FLAG : 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(LOCAL_HEADER, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(content.length, 18);
    local.writeUInt32LE(content.length, 22);
    local.writeUInt16LE(entry.rawName.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(CENTRAL_HEADER, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(content.length, 20);
    central.writeUInt32LE(content.length, 24);
    central.writeUInt16LE(entry.rawName.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, entry.rawName, content);
    centrals.push(central, entry.rawName);
    offset += 30 + entry.rawName.length + content.length;
  }
  const centralSize = centrals.reduce((sum, part) => sum + part.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(END_OF_CENTRAL, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...centrals, end]);
}

/**
 * The Word document's XML parts, unpacked within DOCX_LIMITS and packed again as a plain (stored) zip for mammoth, or
 * an AppError: 413 when it unpacks to too much, 400 when it is not a readable zip. mammoth reads only this package, so
 * it never unpacks more than was measured here, whatever the original's headers claim.
 */
export function boundedDocxPackage(bytes: Buffer): Buffer {
  const parts = xmlPartsOf(bytes);
  // The sizes the headers declare refuse an honest bomb before anything is unpacked.
  if (parts.reduce((sum, entry) => sum + entry.declaredSize, 0) > DOCX_LIMITS.xmlBytes) throw tooLarge();
  let budget = DOCX_LIMITS.xmlBytes;
  const unpacked = parts.map((entry) => {
    const content = unpack(bytes, entry, budget);
    budget -= content.length;
    if (budget < 0) throw tooLarge();
    if (content.length > DOCX_LIMITS.ratioFromBytes && content.length > DOCX_LIMITS.ratio * Math.max(1, entry.compressedSize)) {
      throw new AppError('file_size', MESSAGES.documents.packedTooTightly);
    }
    return { entry, content };
  });
  return storedZipOf(unpacked);
}
