/**
 * Opening a dealer site (issue 24 onboarding), for the dealer console and `pnpm platform site
 * create`: the operator's `NewSite` checked, its address (slug and domain) free, the whole config
 * made from its template (`newSiteConfig`, the demo seed's path too), checked with the contract the
 * server reads sites with, and stored. The site answers at its host on the next request: hosts are
 * looked up in the store, and a new site has nothing cached.
 */
import { z } from 'zod';
import { newSiteSchema, type NewSiteInput } from '@dealer/contracts/new-site';
import { siteConfigSchema, type SiteConfig } from '@dealer/contracts/site';
import { seedSiteContent } from '@dealer/db/content-store';
import { defaultPages } from '@dealer/rules/default-pages';
import type { PlatformDb } from '@dealer/db/database';
import { findSiteIdByHost, insertSite, nextSiteId } from '@dealer/db/site-store';
import { newSiteConfig } from '@dealer/rules/new-site-config';
import { badDayMessage, normaliseWeek } from '@dealer/rules/opening-hours';

/** Why a site could not be made, field by field (the console shows each beside its field). */
export class SiteRefused extends Error {
  constructor(readonly fields: Record<string, string>) {
    super(Object.values(fields)[0] ?? 'The site could not be made.');
  }
}

/** A site's own address before it has a domain: `https://<slug>.<PUBLIC_ORIGIN_SUFFIX>`, or `http://<slug>.localhost:<port>` locally. */
export const slugOrigin = (publicOriginSuffix: string | null, port: number) => (slug: string) =>
  publicOriginSuffix ? `https://${slug}.${publicOriginSuffix}` : `http://${slug}.localhost:${port}`;

const fieldsOf = (error: z.ZodError) =>
  Object.fromEntries(error.issues.map((issue) => [issue.path.join('.') || 'site', issue.message] as const).reverse());

export async function createSite(
  db: PlatformDb,
  input: NewSiteInput | unknown,
  origin: (slug: string) => string,
  now = Date.now(),
): Promise<SiteConfig> {
  const parsed = newSiteSchema.safeParse(input);
  if (!parsed.success) throw new SiteRefused(fieldsOf(parsed.error));
  const request = parsed.data;
  const badHours: Record<string, string> = {};
  request.locations.forEach((location, index) => {
    if (!location.opening_hours) return;
    const checked = normaliseWeek(location.opening_hours);
    if ('week' in checked) location.opening_hours = checked.week;
    else badHours[`locations.${index}.opening_hours`] = badDayMessage(checked.badDay);
  });
  if (Object.keys(badHours).length > 0) throw new SiteRefused(badHours);
  const taken: Record<string, string> = {};
  if ((await findSiteIdByHost(db, { slug: request.slug })) !== null) taken.slug = 'Another site has this address; choose another.';
  if (request.domain_name && (await findSiteIdByHost(db, { domain: request.domain_name })) !== null)
    taken.domain_name = 'Another site has this domain.';
  if (Object.keys(taken).length > 0) throw new SiteRefused(taken);
  for (let attempt = 0; ; attempt++) {
    const config = siteConfigSchema.parse(newSiteConfig(await nextSiteId(db), request, origin));
    try {
      await insertSite(db, config, now);
      // The pages every site has from its first day: privacy policy and terms for its country, about,
      // fleet, parts, offers, careers and locations, for the dealer to make their own in the console.
      const pages = defaultPages(config).map(({ slug, content }) => ({ kind: 'page' as const, slug, version: content, published_at: now }));
      await seedSiteContent(db, config.id, pages, now);
      return config;
    } catch (error) {
      // Two sites made at once took the same id: the second tries the next one (a taken slug stays taken).
      if (attempt >= 2 || (await findSiteIdByHost(db, { slug: request.slug })) !== null) throw error;
    }
  }
}
