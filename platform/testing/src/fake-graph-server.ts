/**
 * A stand-in for the Meta Graph API's Conversions API endpoint, for tests (FACEBOOK_GRAPH_URL):
 * it records every request and answers each with the next queued answer, else a success.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export type GraphRequest = { method: string; path: string; query: URLSearchParams; contentType: string | undefined; body: unknown };
export type GraphAnswer = { status: number; body: unknown };

export type FakeGraph = {
  url: string;
  requests: GraphRequest[];
  /** Answers for the next requests, in order. */
  answers: GraphAnswer[];
  /** The requests whose (single) event has this event id. */
  requestsFor(eventId: string): GraphRequest[];
  close(): Promise<void>;
};

const readBody = (request: IncomingMessage) =>
  new Promise<string>((done, fail) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
    request.on('error', fail);
  });

export async function startFakeGraph(): Promise<FakeGraph> {
  const requests: GraphRequest[] = [];
  const answers: GraphAnswer[] = [];
  const server = createServer((request, response) => {
    void readBody(request).then((text) => {
      const url = new URL(request.url ?? '/', 'http://graph.test');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // Kept as text.
      }
      requests.push({
        method: request.method ?? '',
        path: url.pathname,
        query: url.searchParams,
        contentType: request.headers['content-type'],
        body,
      });
      const answer = answers.shift() ?? { status: 200, body: { events_received: 1, messages: [], fbtrace_id: `trace-${requests.length}` } };
      response.writeHead(answer.status, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    answers,
    requestsFor: (eventId) =>
      requests.filter((request) => (request.body as { data?: { event_id?: string }[] } | null)?.data?.[0]?.event_id === eventId),
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
