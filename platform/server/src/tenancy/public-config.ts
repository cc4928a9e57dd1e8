import type { PublicSiteConfig, SiteConfig } from '@dealer/contracts/site';
import type { RemoteRef } from '@dealer/contracts/remotes';
import { phoneRegion } from '@dealer/rules/locale';
import { formatPhoneForDisplay } from '@dealer/rules/phone';

/**
 * The config a browser may see. Secrets are dropped by name here and, as a second guard,
 * the result is checked against the public schema in tests. Phone numbers go out in the site's
 * own country style (SPEC §5 display formats), done here so no page bundle carries the phone
 * metadata just to show them.
 */
export function toPublicSiteConfig(
  site: SiteConfig,
  remotes: RemoteRef[],
  search: PublicSiteConfig['search'],
  apiPrefix: PublicSiteConfig['api_prefix'] = '/api',
): PublicSiteConfig {
  const { secrets: _secrets, remotes: _settings, ...rest } = site;
  const region = phoneRegion(site.locale);
  const shown = (phone: string) => formatPhoneForDisplay(phone, region);
  const locations = site.locations.map((location) => ({
    ...location,
    contact_detail: {
      ...location.contact_detail,
      phone: shown(location.contact_detail.phone),
      mobile: location.contact_detail.mobile === null ? null : shown(location.contact_detail.mobile),
    },
  }));
  return { ...rest, phone: shown(site.phone), locations, remotes, search, api_prefix: apiPrefix };
}
