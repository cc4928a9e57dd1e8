import { describe, expect, it } from 'vitest';
import { clientAddressKey } from './client-address';

describe('the client a per-address limit counts', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002::1', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['2001:db8:1:2::203.0.113.7', '2001:db8:1:2::/64'],
  ])('%s counts as %s', (ip, key) => {
    expect(clientAddressKey(ip)).toBe(key);
  });

  it('gives every address of one IPv6 /64 the same count, and another /64 its own', () => {
    const keys = new Set(
      Array.from({ length: 50 }, (_, i) => clientAddressKey(`2001:db8:aa:bb:${i.toString(16)}::${(i * 7).toString(16)}`)),
    );
    expect([...keys]).toEqual(['2001:db8:aa:bb::/64']);
    expect(clientAddressKey('2001:db8:aa:bc::1')).not.toBe(clientAddressKey('2001:db8:aa:bb::1'));
  });
});
