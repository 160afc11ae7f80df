export interface TLogoType {
  mime: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp' | 'image/svg+xml';
  extension: 'png' | 'jpg' | 'gif' | 'webp' | 'svg';
}

const startsWith = (bytes: Buffer, signature: number[], offset = 0) => signature.every((byte, index) => bytes[offset + index] === byte);

// An optional namespace prefix before an element or attribute name: any name characters up to a colon.
const PREFIX = String.raw`(?:[^\s<>/:='"]+:)?`;
const element = (name: string) => new RegExp(`<${PREFIX}${name}`, 'i');

/**
 * Markup an SVG logo must not contain (decision 005). SVG is accepted because the sign-up form offers it, but only
 * as a picture: scripts, event handlers, javascript: links, embedded HTML and entity declarations are refused
 * outright rather than sanitised, and the logo route also serves it with a sandboxing CSP and nosniff. So is what
 * could load or change a link another way: an animation that sets a link (`<animate|set attributeName="href">`),
 * style sheets (`<style>`, `@import`), a `url(…)` other than a `#fragment` or a data image, a CSS escape in a style
 * attribute (`u\72l(`), and character references in attribute values (`javascript&#58;`) that would hide any of these.
 * Every element is matched with or without a namespace prefix (`<x:script xmlns:x="…/2000/svg">` is a script too), and
 * any binding of the XHTML namespace is refused, since it could only bring HTML into a picture (review s28).
 */
const UNSAFE_SVG_PATTERNS = [
  element('script'),
  /\bon[a-z]+\s*=/i,
  /javascript:/i,
  element('foreignobject'),
  /<!entity/i,
  element('iframe'),
  element('embed'),
  element('object'),
  /\bhref\s*=(?!\s*["']?\s*(?:#|data:image\/))/i,
  new RegExp(`<${PREFIX}(?:animate[a-z]*|set)\\b[^>]*\\battributeName\\s*=\\s*["']?\\s*${PREFIX}href`, 'i'),
  element('style'),
  /@import/i,
  /\burl\s*\((?!\s*["']?\s*(?:#|data:image\/))/i,
  /\bstyle\s*=\s*(?:"[^"]*\\|'[^']*\\)/i,
  // An attribute value holding a character reference, or an entity other than the five XML predefines.
  /=\s*(?:"[^"]*&(?!(?:amp|lt|gt|quot|apos);)[^"]*"|'[^']*&(?!(?:amp|lt|gt|quot|apos);)[^']*')/i,
  // The XHTML namespace bound as the default or to a prefix.
  /\bxmlns(?::[^\s=]+)?\s*=\s*["']\s*https?:\/\/www\.w3\.org\/1999\/xhtml/i,
];

// An SVG document: optional BOM, XML declaration, comments and doctype, then the <svg> root.
const SVG_ROOT = /^\uFEFF?\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*(<!doctype svg[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<svg[\s>]/i;
// A doctype with an internal subset (`<!DOCTYPE svg [ … ]>`), which the root pattern above does not pass.
const SVG_ROOT_WITH_SUBSET = /^\uFEFF?\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*<!doctype svg\s*\[[\s\S]*?\]\s*>\s*(<!--[\s\S]*?-->\s*)*<svg[\s>]/i;

const hasUnsafeSvgContent = (text: string) => UNSAFE_SVG_PATTERNS.some((pattern) => pattern.test(text));

function isSafeSvg(bytes: Buffer): boolean {
  const text = bytes.toString('utf8');
  return SVG_ROOT.test(text) && !hasUnsafeSvgContent(text);
}

/** An SVG document refused for what it contains (not for being no SVG): its sender is told what to change. */
export function isRefusedSvg(bytes: Buffer): boolean {
  const text = bytes.toString('utf8');
  return (SVG_ROOT.test(text) || SVG_ROOT_WITH_SUBSET.test(text)) && hasUnsafeSvgContent(text);
}

/** The logo's real type from its first bytes (never from the declared mimetype alone), or null. */
export function detectLogoType(bytes: Buffer): TLogoType | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { mime: 'image/png', extension: 'png' };
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { mime: 'image/jpeg', extension: 'jpg' };
  if (bytes.subarray(0, 6).toString('latin1') === 'GIF87a' || bytes.subarray(0, 6).toString('latin1') === 'GIF89a') return { mime: 'image/gif', extension: 'gif' };
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP') return { mime: 'image/webp', extension: 'webp' };
  if (isSafeSvg(bytes)) return { mime: 'image/svg+xml', extension: 'svg' };
  return null;
}

/** A changed logo's upload name: versioned by the time of the change, so the logo's URL changes with it (logoUrlOf). */
export function versionedLogoPath(mspId: string, type: TLogoType, at: Date): string {
  return `uploads/logos/${mspId}.v${at.getTime()}.${type.extension}`;
}

/** The version of a changed logo's upload name, or null for the sign-up logo's. */
export function logoVersionOf(logoPath: string): string | null {
  return /\.v(\d+)\.[a-z]+$/.exec(logoPath)?.[1] ?? null;
}

/** The logo's upload name within its MSP (the `uploads` table; kept in `msps.logo_path`). */
export function logoRelativePath(mspId: string, type: TLogoType): string {
  return `uploads/logos/${mspId}.${type.extension}`;
}
