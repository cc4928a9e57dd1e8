import { isIPv4, isIPv6 } from 'node:net';

/**
 * The client as every per-address limit counts it. An IPv4 address is one client. An IPv6
 * client is its /64: one home or phone gets a whole /64 and may pick any address in it, so
 * counting single addresses would hand an attacker 2^64 fresh buckets. An IPv4 address written
 * as IPv6 (`::ffff:203.0.113.7`) counts as the IPv4 address.
 */
export function clientAddressKey(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped && isIPv4(mapped[1]!)) return mapped[1]!;
  if (!isIPv6(ip)) return ip;
  const [head = '', tail] = ip.toLowerCase().split('%', 1)[0]!.split('::');
  const groups = (text: string) => (text ? text.split(':') : []);
  // An embedded IPv4 tail takes two groups' room, but never reaches the first four.
  const first = groups(head);
  const missing = 8 - first.length - (tail === undefined ? 0 : groups(tail).length);
  const full = tail === undefined ? first : [...first, ...Array<string>(Math.max(missing, 0)).fill('0'), ...groups(tail)];
  return `${full
    .slice(0, 4)
    .map((group) => (/^[0-9a-f]{1,4}$/.test(group) ? Number.parseInt(group, 16).toString(16) : '0'))
    .join(':')}::/64`;
}
