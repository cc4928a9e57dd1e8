/** A multi-search a page asks for while the server renders it: the request as the client made it, and the shopper's address. */
export type InProcessSearchRequest = { authorization: string | undefined; contentType: string | undefined; body: string; ip: string };
/** Its answer as `/meili/multi-search` gives it: the status, the headers the route sets, and the JSON body (results or Meilisearch's error). */
export type InProcessSearchAnswer = { status: number; headers: Record<string, string>; body: unknown };

/**
 * `/meili/multi-search` answered in process, without Fastify's inject: the same key check, count
 * against the shopper's address, body limits, validation and answers as the route (the `/meili`
 * plugin attaches them when it is registered).
 */
export class InProcessSearch {
  private answer: ((request: InProcessSearchRequest) => Promise<InProcessSearchAnswer>) | null = null;

  attach(answer: (request: InProcessSearchRequest) => Promise<InProcessSearchAnswer>) {
    this.answer = answer;
  }

  multiSearch(request: InProcessSearchRequest): Promise<InProcessSearchAnswer> {
    if (!this.answer) throw new Error('The /meili routes are not registered on the platform app.');
    return this.answer(request);
  }
}
