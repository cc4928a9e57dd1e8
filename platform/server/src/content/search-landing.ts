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

/**
 * Landings as a site's content stamp has them, by slug: a site's config object belongs to one stamp
 * (SiteCache.atStamp), and any content write moves the stamp, so the next request's config is a new
 * object with nothing kept yet. A search page asked for again (another filter, sort or page of the
 * same slug) reads no table. At most `maxKeptLandings` slugs a site, the oldest out first, so a
 * crawler's made-up slugs cannot grow it; the answers are shared, and callers never change them.
 */
const keptLandings = new WeakMap<SiteConfig, Map<string, Promise<FilledLanding | null>>>();
const maxKeptLandings = 512;

/** `searchLandingFor`, kept while the site's content is unchanged; a preview of drafts always reads afresh. */
export function keptSearchLandingFor(
  db: PlatformDb,
  site: SiteConfig,
  slug: string,
  options: { drafts: boolean },
): Promise<FilledLanding | null> {
  if (options.drafts) return searchLandingFor(db, site, slug, options);
  let kept = keptLandings.get(site);
  if (!kept) keptLandings.set(site, (kept = new Map()));
  const known = kept.get(slug);
  if (known) return known;
  const reading = searchLandingFor(db, site, slug, options);
  if (kept.size >= maxKeptLandings) kept.delete(kept.keys().next().value!);
  kept.set(slug, reading);
  // A failed read is not kept: the next request asks the store again (unless it already has).
  reading.catch(() => {
    if (kept.get(slug) === reading) kept.delete(slug);
  });
  return reading;
}

/** A landing as `GET /api/search-pages/:slug` answers it (and a server-rendered page's search is given it). */
export function landingAnswer({ seoTitle: _seoTitle, ...landing }: FilledLanding): SearchLanding {
  return landing;
}
