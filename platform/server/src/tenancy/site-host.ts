import type { PlatformDb } from '@dealer/db/database';
import { findSiteIdByHost } from '@dealer/db/site-store';

/**
 * How a request names its site: `{slug}.localhost[:port]` locally (or `{slug}.{PUBLIC_ORIGIN_SUFFIX}`),
 * the site's own domain otherwise. Bare localhost is the platform's index of demo sites.
 */
export type HostTarget = { kind: 'invalid' } | { kind: 'index' } | { kind: 'slug'; slug: string } | { kind: 'domain'; domain: string };

export function parseHost(hostHeader: string | undefined, publicOriginSuffix: string | null): HostTarget {
  const host = (hostHeader ?? '').toLowerCase().trim();
  const shape = /^([a-z0-9.-]+|\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/.exec(host);
  if (host && (!shape || Number(shape[2] ?? 0) > 65535)) return { kind: 'invalid' };
  const hostname = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0]!;
  if (hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]' || hostname === '') return { kind: 'index' };
  const suffixes = ['localhost', ...(publicOriginSuffix ? [publicOriginSuffix.split(':')[0]!.toLowerCase()] : [])];
  for (const suffix of suffixes) {
    if (hostname.endsWith(`.${suffix}`)) {
      const slug = hostname.slice(0, -(suffix.length + 1));
      if (/^[a-z0-9-]+$/.test(slug)) return { kind: 'slug', slug };
    }
  }
  return { kind: 'domain', domain: hostname.replace(/\.$/, '') };
}

/** The dealer console's host name under the sites' suffix: `console.localhost`, `console.{PUBLIC_ORIGIN_SUFFIX}`. No site may take it. */
export const consoleSubdomain = 'console';

export const isConsoleHost = (hostHeader: string | undefined, publicOriginSuffix: string | null) => {
  const target = parseHost(hostHeader, publicOriginSuffix);
  return target.kind === 'slug' && target.slug === consoleSubdomain;
};

/**
 * The one place a Host header becomes a site: 'invalid' for a malformed Host, 'index' for the
 * platform's own index, the site's id, or null when no site is served there.
 */
export async function siteIdForHost(
  db: PlatformDb,
  hostHeader: string | undefined,
  publicOriginSuffix: string | null,
): Promise<number | 'invalid' | 'index' | null> {
  const target = parseHost(hostHeader, publicOriginSuffix);
  if (target.kind === 'index' || target.kind === 'invalid') return target.kind;
  if (target.kind === 'slug' && target.slug === consoleSubdomain) return null;
  return findSiteIdByHost(db, target.kind === 'slug' ? { slug: target.slug } : { domain: target.domain });
}
