/** Errors in Meilisearch's shape, so the official client reports them as it would for Meilisearch. */
export class MeiliError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    readonly type: 'invalid_request' | 'auth' | 'internal' = 'invalid_request',
  ) {
    super(message);
  }

  toJSON() {
    return { message: this.message, code: this.code, type: this.type, link: `https://docs.meilisearch.com/errors#${this.code}` };
  }
}
