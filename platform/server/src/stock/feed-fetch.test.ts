import { lookup as dnsLookup } from 'node:dns';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchFeedCsv, fetchPhoto, isPrivateAddress } from './feed-fetch';

/** A name that resolves to this machine, as a dealer's feed host might resolve to a private address. */
const toLoopback = ((hostname: string, options: object, callback: (error: null, all: { address: string; family: number }[]) => void) =>
  callback(null, [{ address: '127.0.0.1', family: 4 }])) as unknown as typeof dnsLookup;

describe('fetching a feed or a photo from an address a dealer typed', () => {
  let server: Server;
  let base: string;
  const closed: string[] = [];
  const sent = new Map<string, number>();
  const open = new Set<ServerResponse>();

  const drip = (res: ServerResponse, path: string, chunk: Buffer, everyMs: number) => {
    open.add(res);
    let total = 0;
    const timer = setInterval(() => {
      total += chunk.length;
      sent.set(path, total);
      res.write(chunk);
    }, everyMs);
    res.on('close', () => {
      clearInterval(timer);
      closed.push(path);
      open.delete(res);
    });
  };

  beforeAll(async () => {
    server = createServer((req, res) => {
      const path = req.url ?? '/';
      const hops = /^\/hop\/(\d+)$/.exec(path);
      if (hops) {
        const left = Number(hops[1]);
        if (left === 0) return res.end('Stock No,Make\nA1,Kia\n');
        res.writeHead(302, { location: `/hop/${left - 1}` });
        return res.end();
      }
      if (path === '/feed.csv') return res.end('Stock No,Make\nA1,Kia\n');
      if (path === '/hang') {
        open.add(res);
        return res.on('close', () => (closed.push(path), open.delete(res)));
      }
      if (path === '/slow') {
        res.writeHead(200, { 'content-type': 'text/csv' });
        return drip(res, path, Buffer.from('a,b\n'), 100);
      }
      if (path === '/endless') {
        res.writeHead(200, { 'content-type': 'text/csv' });
        return drip(res, path, Buffer.alloc(256 * 1024, 'x'), 5);
      }
      if (path === '/declared') {
        res.writeHead(200, { 'content-length': String(50 * 1024 * 1024) });
        return res.end('x');
      }
      res.writeHead(404, 'Not Found');
      res.end();
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const res of open) res.destroy();
    await new Promise((done) => server.close(done));
  });

  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => 'fetched',
      (error: Error) => error.message,
    );
  const allowed = { allowPrivate: true };

  it('fetches a feed, following up to 3 redirects', async () => {
    expect((await fetchFeedCsv(`${base}/feed.csv`, allowed)).bytes.toString()).toBe('Stock No,Make\nA1,Kia\n');
    expect((await fetchFeedCsv(`${base}/hop/3`, allowed)).bytes.toString()).toContain('A1,Kia');
    expect(await failure(fetchFeedCsv(`${base}/hop/4`, allowed))).toBe(`The feed at ${base}/hop/4 redirects more than 3 times.`);
  });

  it('stops a feed that does not answer, or answers too slowly, at its deadline and closes the connection', async () => {
    const started = Date.now();
    expect(await failure(fetchFeedCsv(`${base}/hang`, { ...allowed, timeoutMs: 1_000 }))).toBe(
      `The feed at ${base}/hang did not answer within 1 s.`,
    );
    expect(await failure(fetchFeedCsv(`${base}/slow`, { ...allowed, timeoutMs: 1_000 }))).toBe(
      `The feed at ${base}/slow did not answer within 1 s.`,
    );
    expect(Date.now() - started).toBeLessThan(4_000);
    await expect.poll(() => closed).toEqual(expect.arrayContaining(['/hang', '/slow']));
  });

  it('stops a download past its byte cap while it streams, and refuses a declared size over it at once', async () => {
    const cap = 1024 * 1024;
    expect(await failure(fetchFeedCsv(`${base}/endless`, { ...allowed, maxBytes: cap }))).toBe(
      `The feed at ${base}/endless is larger than 1 MB.`,
    );
    await expect.poll(() => closed).toContain('/endless');
    // The server stopped soon after the cap, not gigabytes later.
    expect(sent.get('/endless')!).toBeLessThan(8 * cap);
    expect(await failure(fetchPhoto(`${base}/declared`, allowed))).toBe(`The photo at ${base}/declared is larger than 15 MB.`);
  });

  it('refuses private and loopback addresses unless allowed, also behind a name or a redirect', async () => {
    const refused = (url: string) => `The feed at ${url} is on a private network address; only public web addresses are fetched.`;
    expect(await failure(fetchFeedCsv(`${base}/feed.csv`, { allowPrivate: false }))).toBe(refused(`${base}/feed.csv`));
    const port = (server.address() as AddressInfo).port;
    const named = `http://feeds.dealer.test:${port}/feed.csv`;
    expect(await failure(fetchFeedCsv(named, { allowPrivate: false, resolve: toLoopback }))).toBe(refused(named));
    expect((await fetchFeedCsv(named, { allowPrivate: true, resolve: toLoopback })).bytes.toString()).toContain('A1,Kia');
    expect(await failure(fetchFeedCsv(`http://localhost:${port}/feed.csv`, { allowPrivate: false }))).toBe(
      refused(`http://localhost:${port}/feed.csv`),
    );
    expect(await failure(fetchFeedCsv(`http://[::1]:${port}/feed.csv`, { allowPrivate: false }))).toBe(
      refused(`http://[::1]:${port}/feed.csv`),
    );
  });

  it('refuses addresses that are not http(s), and says what a server answered', async () => {
    expect(await failure(fetchFeedCsv('ftp://example.com/feed.csv', allowed))).toBe(
      'The feed at ftp://example.com/feed.csv is not an http or https address.',
    );
    expect(await failure(fetchFeedCsv(`${base}/missing`, allowed))).toBe(`The feed at ${base}/missing answered 404 Not Found.`);
  });

  it('knows which addresses are private', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:10.0.0.1',
    ])
      expect(isPrivateAddress(address), address).toBe(true);
    for (const address of ['8.8.8.8', '203.0.113.9', '2606:4700::1111', '::ffff:8.8.8.8'])
      expect(isPrivateAddress(address), address).toBe(false);
  });
});
