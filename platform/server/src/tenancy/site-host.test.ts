import { describe, expect, it } from 'vitest';
import { parseHost, type HostTarget } from './site-host';

const index: HostTarget = { kind: 'index' };
const slug = (value: string): HostTarget => ({ kind: 'slug', slug: value });
const domain = (value: string): HostTarget => ({ kind: 'domain', domain: value });

describe('finding the dealer site a request is for', () => {
  it.each<[string | undefined, HostTarget]>([
    [undefined, index],
    ['', index],
    ['localhost', index],
    ['localhost:3000', index],
    ['LOCALHOST:3000', index],
    ['127.0.0.1:3000', index],
    ['127.0.0.1', index],
    ['[::1]:3000', index],
    ['[::1]', index],
    ['metro-motor-group.localhost:3000', slug('metro-motor-group')],
    ['metro-motor-group.localhost', slug('metro-motor-group')],
    ['Metro-Motor-Group.LOCALHOST:3000', slug('metro-motor-group')],
    ['  kiwi-motors.localhost:3000  ', slug('kiwi-motors')],
    ['www.metromotorgroup.com.au', domain('www.metromotorgroup.com.au')],
    ['WWW.MetroMotorGroup.com.au:443', domain('www.metromotorgroup.com.au')],
    ['www.kiwimotors.co.nz.', domain('www.kiwimotors.co.nz')],
    ['a.b.localhost:3000', domain('a.b.localhost')],
    ['under_score.localhost:3000', { kind: 'invalid' }],
    ['metro-motor-group.localhost:abc', { kind: 'invalid' }],
    ['metro-motor-group.localhost:65535', slug('metro-motor-group')],
    // No such port: an address built on it would not parse (every page a 500).
    ['metro-motor-group.localhost:65536', { kind: 'invalid' }],
    ['metro-motor-group.localhost:99999', { kind: 'invalid' }],
  ])('reads Host %j as %j', (host, target) => {
    expect(parseHost(host, null)).toEqual(target);
  });

  it.each<[string, string, HostTarget]>([
    ['metro-motor-group.sites.example.com', 'sites.example.com', slug('metro-motor-group')],
    ['metro-motor-group.sites.example.com:8443', 'sites.example.com:8443', slug('metro-motor-group')],
    ['METRO-MOTOR-GROUP.Sites.Example.com', 'sites.example.com', slug('metro-motor-group')],
    ['metro-motor-group.sites.example.com', 'Sites.Example.com', slug('metro-motor-group')],
    ['metro-motor-group.localhost:3000', 'sites.example.com', slug('metro-motor-group')],
    ['www.lonestarauto.com', 'sites.example.com', domain('www.lonestarauto.com')],
    ['metro-motor-group.other.example.com', 'sites.example.com', domain('metro-motor-group.other.example.com')],
    ['evil-sites.example.com', 'sites.example.com', domain('evil-sites.example.com')],
  ])('reads Host %j under the public suffix %j as %j', (host, suffix, target) => {
    expect(parseHost(host, suffix)).toEqual(target);
  });
});
