/**
 * Fetching a feed's CSV and the photos it names (issue 24) from addresses the dealer typed, so
 * each fetch is bounded: http(s) only, a deadline for the whole fetch (connecting, redirects and
 * body), a byte cap enforced while the body streams in (the download is stopped, never buffered
 * whole), at most 3 redirects, and no private, loopback or link-local address (checked on the
 * addresses the connection actually uses, so a name that resolves elsewhere later cannot slip
 * past) unless FEEDS_ALLOW_PRIVATE_ADDRESSES=1 (tests, the e2e server, the bench).
 *
 * It uses node:http(s) rather than fetch: their `lookup` hook is where the resolved addresses are
 * checked before connecting, which fetch without undici's Agent does not offer.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { carPhotoMaxBytes } from '../images/car-photos';
import { feedMaxBytes } from './feed-csv';

export type FetchLimits = {
  /** The whole fetch, redirects and body included (ms). */
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  /** Whether private, loopback and link-local addresses may be fetched (FEEDS_ALLOW_PRIVATE_ADDRESSES). */
  allowPrivate: boolean;
  /** How names are resolved: the system's resolver (a test gives its own). */
  resolve?: typeof dnsLookup;
};

export const feedLimits = { timeoutMs: 30_000, maxBytes: feedMaxBytes, maxRedirects: 3 } as const;
export const photoLimits = { timeoutMs: 15_000, maxBytes: carPhotoMaxBytes, maxRedirects: 3 } as const;

/** Why a fetch failed, in the dealer's words. */
export class FetchFailed extends Error {}

/** Addresses no feed or photo is fetched from: this machine, the private networks, link-local, multicast and the reserved ranges. */
const privateRanges = (() => {
  const list = new BlockList();
  for (const [net, prefix] of [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['224.0.0.0', 3],
  ] as const)
    list.addSubnet(net, prefix, 'ipv4');
  for (const [net, prefix] of [
    ['::', 128],
    ['::1', 128],
    ['fc00::', 7],
    ['fe80::', 10],
    ['ff00::', 8],
    ['64:ff9b::', 96],
  ] as const)
    list.addSubnet(net, prefix, 'ipv6');
  return list;
})();

/** Whether an address is one no fetch may reach (an IPv4 address written as IPv6 is judged as IPv4). */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return privateRanges.check(mapped[1]!, 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return privateRanges.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;
const shown = (url: string) => (url.length > 120 ? `${url.slice(0, 117)}…` : url);

/** The connection's name lookup, refusing private addresses unless allowed. */
const guardedLookup =
  (allowPrivate: boolean, refusal: string, resolve: typeof dnsLookup): LookupFunction =>
  (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const usable = allowPrivate ? addresses : addresses.filter((one) => !isPrivateAddress(one.address));
      if (usable.length === 0) return callback(new FetchFailed(refusal), '', 0);
      if (options.all) return (callback as unknown as (e: null, all: LookupAddress[]) => void)(null, usable);
      callback(null, usable[0]!.address, usable[0]!.family);
    });
  };

/**
 * The body at `url`, within `limits`. `what` names it in messages ("The feed", "The photo").
 * Refuses with FetchFailed and a message for the dealer; never leaves a socket open.
 */
export function fetchBounded(url: string, limits: FetchLimits, what: string): Promise<{ bytes: Buffer; contentType: string | null }> {
  const first = shown(url);
  return new Promise((resolve, reject) => {
    let current: http.ClientRequest | null = null;
    let settled = false;
    const finish = (error: Error | null, value?: { bytes: Buffer; contentType: string | null }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) {
        current?.destroy();
        reject(error instanceof FetchFailed ? error : new FetchFailed(`${what} at ${first} could not be fetched (${error.message}).`));
      } else resolve(value!);
    };
    const timer = setTimeout(
      () => finish(new FetchFailed(`${what} at ${first} did not answer within ${Math.round(limits.timeoutMs / 1000)} s.`)),
      limits.timeoutMs,
    );
    const tooLarge = () => new FetchFailed(`${what} at ${first} is larger than ${megabytes(limits.maxBytes)}.`);

    const get = (address: string, redirects: number) => {
      let target: URL;
      try {
        target = new URL(address);
      } catch {
        return finish(new FetchFailed(`${what} address ${shown(address)} is not a web address.`));
      }
      if (target.protocol !== 'http:' && target.protocol !== 'https:')
        return finish(new FetchFailed(`${what} at ${shown(address)} is not an http or https address.`));
      const refusal = `${what} at ${first} is on a private network address; only public web addresses are fetched.`;
      const host = target.hostname.replace(/^\[|\]$/g, '');
      if (!limits.allowPrivate && (host === 'localhost' || (isIP(host) !== 0 && isPrivateAddress(host))))
        return finish(new FetchFailed(refusal));
      const client = target.protocol === 'https:' ? https : http;
      const request = client.get(target, {
        lookup: guardedLookup(limits.allowPrivate, refusal, limits.resolve ?? dnsLookup),
        headers: { 'user-agent': 'DealerPlatform-FeedImport/1.0', accept: '*/*' },
        agent: false,
      });
      current = request;
      request.on('error', (error) => finish(error));
      request.on('response', (response) => {
        const status = response.statusCode ?? 0;
        if (status >= 300 && status < 400 && response.headers.location) {
          response.resume();
          request.destroy();
          if (redirects >= limits.maxRedirects)
            return finish(new FetchFailed(`${what} at ${first} redirects more than ${limits.maxRedirects} times.`));
          return get(new URL(response.headers.location, target).href, redirects + 1);
        }
        if (status < 200 || status >= 300) {
          response.resume();
          return finish(new FetchFailed(`${what} at ${first} answered ${status} ${response.statusMessage ?? ''}`.trimEnd() + '.'));
        }
        const declared = Number(response.headers['content-length']);
        if (Number.isFinite(declared) && declared > limits.maxBytes) return finish(tooLarge());
        const chunks: Buffer[] = [];
        let received = 0;
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > limits.maxBytes) return finish(tooLarge());
          chunks.push(chunk);
        });
        response.on('error', (error) => finish(error));
        response.on('end', () => finish(null, { bytes: Buffer.concat(chunks), contentType: response.headers['content-type'] ?? null }));
        response.on('close', () => {
          if (!response.complete) finish(new FetchFailed(`${what} at ${first} stopped sending before its end.`));
        });
      });
    };
    get(url, 0);
  });
}

type GivenLimits = Pick<FetchLimits, 'allowPrivate'> & Partial<FetchLimits>;

/** A feed's CSV (30 s, 20 MB, unless `limits` says otherwise). */
export const fetchFeedCsv = (url: string, limits: GivenLimits) => fetchBounded(url, { ...feedLimits, ...limits }, 'The feed');

/** A photo a feed names (15 s, the car photo cap, unless `limits` says otherwise). */
export const fetchPhoto = (url: string, limits: GivenLimits) => fetchBounded(url, { ...photoLimits, ...limits }, 'The photo');
