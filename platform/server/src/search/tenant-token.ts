import { generateTenantToken } from 'meilisearch/token';
import type { MeilisearchConfig } from '../config';
import { carsIndexUid, siteBaseFilter, type SiteSearchScope } from './site-search';

/** How long a browser's search token lasts. A page is re-rendered (and re-signed) long before. */
export const tenantTokenLifetimeSeconds = 24 * 60 * 60;

/**
 * The search key a site's browser gets when search runs on a real Meilisearch: a tenant token
 * signed with the platform's search API key, whose only rule is the site's base filter on the
 * cars index, so Meilisearch itself ANDs the site's scope into every search made with it. It is
 * made afresh for every document, since the sold-cars window in the filter moves with the clock.
 */
export async function tenantTokenForSite(
  site: SiteSearchScope,
  meili: Pick<MeilisearchConfig, 'searchKey' | 'searchKeyUid'>,
  nowSeconds: number,
): Promise<string> {
  return generateTenantToken({
    apiKey: meili.searchKey,
    apiKeyUid: meili.searchKeyUid,
    searchRules: { [carsIndexUid]: { filter: siteBaseFilter(site, nowSeconds).filter } },
    expiresAt: nowSeconds + tenantTokenLifetimeSeconds,
  });
}
