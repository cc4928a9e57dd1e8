import type { PublicSiteConfig, SiteConfig } from '@dealer/contracts/site';
import type { RemoteRef } from '@dealer/contracts/remotes';

/**
 * The config a browser may see. Secrets are dropped by name here and, as a second guard,
 * the result is checked against the public schema in tests.
 */
export function toPublicSiteConfig(site: SiteConfig, remotes: RemoteRef[], search: PublicSiteConfig['search'], apiPrefix: PublicSiteConfig['api_prefix'] = '/api'): PublicSiteConfig {
  const { secrets: _secrets, remotes: _settings, ...rest } = site;
  return { ...rest, remotes, search, api_prefix: apiPrefix };
}
