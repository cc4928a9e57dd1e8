import type { PublicSiteConfig } from '@dealer/contracts/site';
import { isDrawnLogo, wordmark } from '@dealer/rules/wordmark';

/**
 * The site's logo in the header: an uploaded one as its picture; the drawn wordmark (a site that has
 * not uploaded one) as text in the page's own font and colours. As a picture, the wordmark was an
 * SVG the browser made a document of, with its own fonts to set up, while the page loaded.
 */
export function SiteBrand({ site }: { site: Pick<PublicSiteConfig, 'slug' | 'name' | 'logo' | 'branding'> }) {
  if (!isDrawnLogo(site)) return <img src={site.logo.url} alt={site.name} width={160} height={40} />;
  const mark = wordmark(site.name, site.branding.primary);
  return (
    <span className="wordmark" role="img" aria-label={mark.name}>
      <span className="wordmark__tile">{mark.initials}</span>
      <span className="wordmark__name">{mark.name}</span>
    </span>
  );
}
