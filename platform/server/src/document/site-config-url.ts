import { createHash } from 'node:crypto';
import type { PublicSiteConfig } from '@dealer/contracts/site';

/** The route that answers a site's public config (routes/site.ts). */
export const siteConfigPath = '/api/site';

const versions = new WeakMap<PublicSiteConfig, string>();

/** A digest of the config a page was rendered with: it changes whenever anything in the config does. */
export function siteConfigVersion(config: PublicSiteConfig): string {
  let version = versions.get(config);
  if (!version) {
    version = createHash('sha256').update(JSON.stringify(config)).digest('base64url').slice(0, 16);
    versions.set(config, version);
  }
  return version;
}

/**
 * Where a server-rendered page's code fetches the site config: the same address on every page of
 * the site until the config changes, so the browser keeps it (see routes/site.ts).
 */
export const siteConfigUrl = (config: PublicSiteConfig) => `${siteConfigPath}?v=${siteConfigVersion(config)}`;
