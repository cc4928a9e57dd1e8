/** Errors in Meilisearch's shape, so the official client reports them as it would for Meilisearch. */
export class MeiliError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    readonly type: 'invalid_request' | 'auth' | 'internal' | 'system' = 'invalid_request',
  ) {
    super(message);
  }

  toJSON() {
    return { message: this.message, code: this.code, type: this.type, link: `https://docs.meilisearch.com/errors#${this.code}` };
  }
}

/** The same error, said of one part of the request (`Inside \`.queries[1]\`: …`), as Meilisearch places errors in a multi-search. */
export function inside(where: string, error: unknown): unknown {
  return error instanceof MeiliError
    ? new MeiliError(error.code, `Inside \`${where}\`: ${error.message}`, error.status, error.type)
    : error;
}
