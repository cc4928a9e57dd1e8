/**
 * The value of the named cookie a Cookie header carries (the first, as the browser sends the most
 * specific first), or null; at most `maxLength` characters of it. Whatever the header holds, this
 * never throws: a cookie that is not what its name says is none, and its readers treat it so.
 */
export function cookieFromHeader(header: string | string[] | undefined, name: string, maxLength = 200): string | null {
  const text = Array.isArray(header) ? header.join('; ') : header;
  if (!text) return null;
  for (const pair of text.split(';')) {
    const at = pair.indexOf('=');
    if (at < 0 || pair.slice(0, at).trim() !== name) continue;
    const value = pair.slice(at + 1).trim();
    return value === '' ? null : value.slice(0, maxLength);
  }
  return null;
}
