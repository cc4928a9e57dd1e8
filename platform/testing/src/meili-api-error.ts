import { MeilisearchApiError } from 'meilisearch';

export type RefusedCall = { status: number; code: string | undefined; type: string | undefined; message: string };

/**
 * How the official client reports a refused call: its MeilisearchApiError, with Meilisearch's
 * status, code, type and message. Fails when the call was not refused, or refused otherwise.
 */
export async function apiError(call: Promise<unknown>): Promise<RefusedCall> {
  try {
    await call;
  } catch (error) {
    if (!(error instanceof MeilisearchApiError)) throw new Error(`expected a MeilisearchApiError, got ${String(error)}`, { cause: error });
    return {
      status: error.response.status,
      code: error.cause?.code,
      type: error.cause?.type,
      message: error.cause?.message ?? error.message,
    };
  }
  throw new Error('expected the call to be refused');
}
