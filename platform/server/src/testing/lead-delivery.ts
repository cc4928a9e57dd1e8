/**
 * What the delivery target suites (leads/delivery-targets.*.test.ts) share: a demo lead to deliver,
 * and a local HTTP receiver that answers as each test says. Production code does not import it.
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import type { SiteConfig } from '@dealer/contracts/site';
import { generateDemoData } from '@dealer/demo/demo-data';
import type { DeliverableLead } from '@dealer/leads/deliverable-lead';

const data = generateDemoData(Math.floor(Date.UTC(2025, 0, 1) / 1000));
export const site: SiteConfig = data.sites.find((candidate) => candidate.slug === 'metro-motor-group')!;
const car = data.cars.find((candidate) => candidate.dealership_slug === site.dealerships[0]!.slug && candidate.vin !== '')!;
export const lead: DeliverableLead = {
  id: 42,
  site,
  car,
  createdAt: Date.UTC(2025, 4, 6, 23, 15, 42, 123),
  files: [],
  payload: {
    name: 'Jane',
    last_name: 'Citizen & Sons',
    email: 'jane@example.com',
    phone: '0412 345 678',
    category: 'Used Vehicle Enquiry',
    message: 'Is it still available?',
    car_id: car.id,
    Rego: 'ABC123',
  },
};
export const secret = 'whsec_0123456789abcdef0123456789abcdef';
export const shortTimeout = { timeoutMs: 300 };

// ------------------------------------------------------------------------------- a local receiver

export type Received = { method: string; url: string; headers: IncomingHttpHeaders; body: string };
export type Receiver = { url: string; requests: Received[]; close: () => Promise<void> };

export async function startReceiver(respond: (request: Received, response: ServerResponse) => void): Promise<Receiver> {
  const requests: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const received = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(received);
      respond(received, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/hooks/leads`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const reply =
  (code: number, body: string, headers: Record<string, string> = {}) =>
  (_request: Received, response: ServerResponse) => {
    response.writeHead(code, { 'Content-Type': 'text/plain', ...headers });
    response.end(body);
  };
export const hang = () => undefined;

/** A port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
