/** What an uploaded picture is, by its first bytes, before any decoder sees it (logos and car photos alike). */
const startsWith = (bytes: Buffer, at: number, text: string) => bytes.subarray(at, at + text.length).equals(Buffer.from(text, 'latin1'));

/**
 * What an upload's first bytes say it is: one of the formats taken, another picture format (GIF,
 * SVG or other XML, HEIC/AVIF, BMP, TIFF), or nothing we know.
 */
export function uploadFormat(bytes: Buffer): 'jpeg' | 'png' | 'webp' | 'other picture' | 'unknown' {
  if (startsWith(bytes, 0, '\xff\xd8\xff')) return 'jpeg';
  if (startsWith(bytes, 0, '\x89PNG\r\n\x1a\n')) return 'png';
  if (startsWith(bytes, 0, 'RIFF') && startsWith(bytes, 8, 'WEBP')) return 'webp';
  const text = bytes
    .subarray(0, 256)
    .toString('latin1')
    .replace(/^\xef\xbb\xbf/, '')
    .trimStart();
  const other =
    startsWith(bytes, 0, 'GIF8') ||
    text.startsWith('<') ||
    startsWith(bytes, 4, 'ftyp') ||
    startsWith(bytes, 0, 'BM') ||
    startsWith(bytes, 0, 'II*\0') ||
    startsWith(bytes, 0, 'MM\0*');
  return other ? 'other picture' : 'unknown';
}
