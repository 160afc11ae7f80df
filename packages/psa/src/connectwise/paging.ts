/** Reads the `rel="next"` target of an RFC 8288 Link header, as ConnectWise sends on every page. */
export function parseNextLink(header: string | null): string | null {
  if (header === null) return null;
  for (const part of header.split(/,(?=\s*<)/)) {
    const match = /^\s*<([^>]*)>\s*;(.*)$/.exec(part);
    if (!match) continue;
    const [, target, parameters] = match;
    if (target !== undefined && parameters !== undefined && /(^|;)\s*rel\s*=\s*"?next"?\s*(;|$)/i.test(parameters)) return target;
  }
  return null;
}

export const connectWiseMaxPageSize = 1000;
