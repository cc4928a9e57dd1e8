import { BlockList, isIP, type Socket } from 'node:net';
import type { Server } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { clientAddressKey } from './client-address';

/** The ranges proxy-addr (Fastify's trustProxy) means by these names in TRUSTED_PROXIES. */
const namedRanges: Record<string, string[]> = {
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

const familyOf = (address: string) => (isIP(address) === 6 ? 'ipv6' : 'ipv4');

/** TRUSTED_PROXIES (addresses, CIDR ranges, range names; checked by config.ts) as a list an address can be looked up in. */
function trustedProxyList(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries.flatMap((name) => namedRanges[name] ?? [name])) {
    const [address = '', prefix] = entry.split('/');
    if (prefix === undefined) list.addAddress(address, familyOf(address));
    else list.addSubnet(address, Number(prefix), familyOf(address));
  }
  return list;
}

/**
 * At most `max` open connections per client address (an IPv6 client by its /64, as every
 * per-address limit counts it); one more is destroyed as it arrives, before a byte is read, so a
 * single client cannot hold the server's sockets and memory. It is the socket's own address: no
 * X-Forwarded-For has been read yet. The trusted proxies are never capped (every shopper behind
 * them shares their address); the limits per request still hold for the clients they name.
 */
export function capConnectionsPerAddress(
  server: Server,
  options: { max: number; trustedProxies: readonly string[]; log: FastifyBaseLogger },
) {
  if (options.max <= 0) return;
  const proxies = trustedProxyList(options.trustedProxies);
  const open = new Map<string, number>();
  /** Addresses already logged as over the cap, until they close all their connections: once a burst, not once a socket. */
  const warned = new Set<string>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (!address || proxies.check(address, familyOf(address))) return;
    const key = clientAddressKey(address);
    const count = open.get(key) ?? 0;
    if (count >= options.max) {
      if (!warned.has(key)) {
        warned.add(key);
        options.log.warn(
          { client: key, max: options.max },
          'connection refused: this address already holds HTTP_MAX_CONNECTIONS_PER_ADDRESS open connections',
        );
      }
      socket.destroy();
      return;
    }
    open.set(key, count + 1);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left > 0) {
        open.set(key, left);
      } else {
        open.delete(key);
        warned.delete(key);
      }
    });
  });
}
