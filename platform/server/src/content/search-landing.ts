/**
 * A site's search landing page (issue 24): `/search/<slug>` with the dealer's preset filter, its
 * title, intro and description filled from the site's template. Read by the document (its head),
 * by `GET /api/search-pages/:slug` (mf-search's title, intro and filters) and by the sitemap.
 */
import type { LandingContent, SearchLanding, SearchTemplateContent } from '@dealer/contracts/content';
import type { SiteConfig } from '@dealer/contracts/site';
import { findContent } from '@dealer/db/content-store';
import type { PlatformDb } from '@dealer/db/database';
import { fillSearchLanding, presetFilters } from '@dealer/rules/search-pages';

export type FilledLanding = SearchLanding & { seoTitle: string };

/** The slug of the site's one search page template. */
export const searchTemplateSlug = 'default';

export async function searchLandingFor(
  db: PlatformDb,
  site: SiteConfig,
  slug: string,
  options: { drafts: boolean },
): Promise<FilledLanding | null> {
  if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slug)) return null;
  const found = await findContent(db, site.id, 'landing', slug, options);
  if (!found) return null;
  const landing = found.version as LandingContent;
  const template = await findContent(db, site.id, 'search_template', searchTemplateSlug, options);
  const filled = fillSearchLanding(landing, (template?.version as SearchTemplateContent | undefined) ?? null, site);
  return { slug, ...filled, filters: presetFilters(landing.preset) };
}

/** A landing as `GET /api/search-pages/:slug` answers it (and a server-rendered page's search is given it). */
export function landingAnswer({ seoTitle: _seoTitle, ...landing }: FilledLanding): SearchLanding {
  return landing;
}
