/**
 * Reading an HTTP answer without trusting its size (lead webhooks, the Conversions API, payment
 * gateways): a misconfigured URL or a hostile server can neither fill the memory nor keep a send
 * waiting on an endless body.
 */

/**
 * Reads the body until it has `enough` bytes or ends, then lets the rest go. A read that fails (a
 * body cut off, a timeout) ends it too, and is handed back beside what came before it.
 */
async function readPrefix(
  body: ReadableStream<Uint8Array>,
  enough: number,
): Promise<{ bytes: Buffer; failure: { error: unknown } | null }> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let failure: { error: unknown } | null = null;
  try {
    while (size < enough) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } catch (error) {
    failure = { error };
  } finally {
    reader.cancel().catch(() => undefined);
  }
  return { bytes: Buffer.concat(chunks), failure };
}

/**
 * The first `maxBytes` of the body as text, for a detail or a log line. Never throws: a body cut
 * off or timed out gives what came, and its status code is still there to judge by.
 */
export async function bodyStart(response: Response, maxBytes: number): Promise<string> {
  if (!response.body) return '';
  const { bytes } = await readPrefix(response.body, maxBytes);
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, maxBytes));
}

/** The whole body as text, or null (the rest left unread) when it is longer than `limit` bytes. Throws when reading it fails. */
export async function bodyAtMost(response: Response, limit: number): Promise<string | null> {
  if (Number(response.headers.get('content-length')) > limit) {
    await response.body?.cancel();
    return null;
  }
  if (!response.body) return '';
  const { bytes, failure } = await readPrefix(response.body, limit + 1);
  if (failure) throw failure.error;
  return bytes.length > limit ? null : bytes.toString('utf8');
}
