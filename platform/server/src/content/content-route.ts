/**
 * The dealer's content for a page of the site (issue 24): what the document needs before its head
 * goes out (status, title, description, share image, JSON-LD, the hero to preload) and the page
 * itself with every block's data filled in, which travels as `#route-data` and `GET /api/pages`.
 */
import type { OfferContent, PageContent, PostContent, ResolvedPage } from '@dealer/contracts/content';
import type { SiteConfig } from '@dealer/contracts/site';
import type { RouteMatch } from '@dealer/rules/routes';
import { contentPageTitle } from '@dealer/rules/content-pages';
import { findContent, listPublishedContent } from '@dealer/db/content-store';
import type { PlatformDb } from '@dealer/db/database';
import { carCards, resolveBlocks } from './resolve-blocks';

/** Posts on one page of the news list (SPEC §5's page size of lists). */
export const postsPerPage = 12;

export type ContentAnswer = {
  status: 200 | 404;
  /** The page to render; null with 200 on home: the site has not written a home page (the shell's default). */
  page: ResolvedPage | null;
  title: string | null;
  description: string | null;
  shareImage: { src: string; alt: string } | null;
  hero: { src: string; alt: string } | null;
  post: { published_at: number; updated_at: number; author: string | null } | null;
};

const notFound: ContentAnswer = { status: 404, page: null, title: null, description: null, shareImage: null, hero: null, post: null };

/** Pages known by two addresses (the link rules strip `/pages/`, SPEC §2): the stored page of either serves both. */
const pageAliases: Record<string, string[]> = {
  about: ['about-us'],
  'about-us': ['about'],
  'parts-and-accessories': ['vehicle-parts-and-accessories'],
  'vehicle-parts-and-accessories': ['parts-and-accessories'],
  dealerships: ['our-locations'],
  'our-locations': ['dealerships'],
};

/** The stored slug of a content route's page: `pages/about-us` is the page `about-us`. */
export const pageSlugOf = (page: string) => page.replace(/^pages\//, '');

/** Pages every site has even before its dealer writes them: the locations, and careers (open jobs and the form). */
function systemPage(slug: string): PageContent | null {
  if (slug === 'dealerships' || slug === 'our-locations')
    return { title: contentPageTitle(slug), seo: {}, blocks: [{ type: 'locations', id: 'locations', show_hours: true }] };
  if (slug === 'careers')
    return {
      title: 'Careers',
      seo: {},
      blocks: [
        { type: 'jobs_list', id: 'jobs' },
        { type: 'lead_form', id: 'apply', form: 'careers', title: 'Apply or register your interest' },
      ],
    };
  return null;
}

type Options = { drafts: boolean; now: number };

async function storedPage(db: PlatformDb, siteId: number, slug: string, options: Options): Promise<PageContent | null> {
  for (const candidate of [slug, ...(pageAliases[slug] ?? [])]) {
    const found = await findContent(db, siteId, 'page', candidate, { drafts: options.drafts });
    if (found) return found.version as PageContent;
  }
  return null;
}

/**
 * The content of a page, or null for routes that are not content (search, car pages, forms...).
 * `url` is the page's address (path and query).
 */
export async function contentForRoute(
  db: PlatformDb,
  site: SiteConfig,
  match: RouteMatch,
  url: URL,
  options: Options,
): Promise<ContentAnswer | null> {
  const answer = await resolveContent(db, site, match, url, options);
  if (!answer?.page) return answer;
  // An SEO title that names the site already is used as the dealer wrote it; home keeps the site's own.
  const own = answer.title ?? answer.page.title;
  const documentTitle = match.kind === 'home' ? site.seo.title : own.includes(site.name) ? own : `${own} | ${site.name}`;
  return { ...answer, page: { ...answer.page, document_title: documentTitle } };
}

async function resolveContent(
  db: PlatformDb,
  site: SiteConfig,
  match: RouteMatch,
  url: URL,
  options: Options,
): Promise<ContentAnswer | null> {
  const path = `${url.pathname}${url.search}`;
  switch (match.kind) {
    case 'home': {
      const version = await storedPage(db, site.id, 'home', options);
      if (!version) return { ...notFound, status: 200 };
      const blocks = await resolveBlocks(db, site, version.blocks, options);
      const hero = blocks.find((block) => block.type === 'hero');
      return {
        ...pageAnswer({ kind: 'home', path, title: version.title, blocks }, version),
        hero: hero?.type === 'hero' ? (hero.image ?? null) : null,
      };
    }
    case 'content': {
      const slug = pageSlugOf(match.page);
      const version = (await storedPage(db, site.id, slug, options)) ?? systemPage(slug);
      if (!version) return notFound;
      const blocks = await resolveBlocks(db, site, version.blocks, options);
      return pageAnswer({ kind: 'page', path, title: version.title, blocks }, version);
    }
    case 'blog': {
      const list = await listPublishedContent(db, site.id, 'post', {
        offset: (match.page - 1) * postsPerPage,
        limit: postsPerPage,
        now: options.now,
        drafts: options.drafts,
      });
      const pages = Math.max(1, Math.ceil(list.total / postsPerPage));
      if (match.page > pages) return notFound;
      const intro = await storedPage(db, site.id, match.section, options);
      const title = intro?.title ?? 'Latest News';
      const blocks = intro ? await resolveBlocks(db, site, intro.blocks, options) : [];
      const posts = list.items.map((item) => {
        const post = item.version as PostContent;
        return {
          slug: item.slug,
          title: post.title,
          summary: post.summary,
          image: post.image ?? null,
          published_at: item.published_at ?? options.now,
        };
      });
      const answer = pageAnswer(
        { kind: 'blog', path, title, blocks, blog: { section: match.section, posts, page: match.page, pages } },
        intro,
      );
      return match.page > 1 ? { ...answer, title: `${title}, page ${match.page}` } : answer;
    }
    case 'post': {
      const found = await findContent(db, site.id, 'post', match.slug, { drafts: options.drafts });
      if (!found) return notFound;
      const post = found.version as PostContent;
      const blocks = await resolveBlocks(db, site, post.blocks, options);
      const details = {
        published_at: found.published_at ?? options.now,
        updated_at: found.updated_at,
        author: post.author ?? null,
        image: post.image ?? null,
      };
      return {
        ...pageAnswer({ kind: 'post', path, title: post.title, blocks, post: details }, post),
        description: post.seo.description ?? (post.summary || null),
        shareImage: post.seo.share_image ? { src: post.seo.share_image, alt: post.title } : (post.image ?? null),
        post: details,
      };
    }
    case 'offer': {
      const found = await findContent(db, site.id, 'offer', match.slug, { drafts: options.drafts });
      const offer = found?.version as OfferContent | undefined;
      if (!found || !offer || offer.expires_at <= options.now) return notFound;
      const blocks = await resolveBlocks(db, site, offer.blocks, options);
      const cars = await carCards(db, site, offer.car_ids, offer.car_ids.length, options.now);
      return {
        ...pageAnswer(
          {
            kind: 'offer',
            path,
            title: offer.title,
            blocks,
            offer: {
              expires_at: offer.expires_at,
              image: offer.image ?? null,
              terms_html: offer.terms_html ?? null,
              cars,
              detail_path: site.detail_path,
            },
          },
          offer,
        ),
        description: offer.seo.description ?? (offer.summary || null),
        shareImage: offer.seo.share_image ? { src: offer.seo.share_image, alt: offer.title } : (offer.image ?? null),
      };
    }
    default:
      return null;
  }
}

function pageAnswer(page: ResolvedPage, version: PageContent | null): ContentAnswer {
  const firstImage = page.blocks.find((block) => block.type === 'hero' || block.type === 'image');
  const pictured = firstImage?.type === 'hero' || firstImage?.type === 'image' ? (firstImage.image ?? null) : null;
  const share = version?.seo.share_image ? { src: version.seo.share_image, alt: page.title } : pictured;
  return {
    status: 200,
    page,
    title: version?.seo.title ?? page.title,
    description: version?.seo.description ?? null,
    shareImage: share,
    hero: null,
    post: null,
  };
}
