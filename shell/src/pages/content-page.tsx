import { Link, useLocation } from 'react-router-dom';
import type { ResolvedPage } from '@dealer/contracts/content';
import { contentPageTitle } from '@dealer/rules/content-pages';
import type { RouteMatch } from '@dealer/rules/routes';
import { useAppSelector } from '@dealer/state/hooks';
import { selectSite } from '@dealer/state/site-slice';
import { Button } from '@dealer/ui/button';
import { usePageTitle } from '@dealer/ui/page-title';
import { CarCards } from '../content/blocks/car-cards';
import { WideImage } from '../content/blocks/image';
import { LocationList } from '../content/blocks/locations';
import { PostCards } from '../content/blocks/posts-list';
import { RichHtml } from '../content/blocks/rich-html';
import { formatDay, isoDay } from '../content/content-dates';
import { PageBlocks } from '../content/page-blocks';
import { PageLoading } from '../content/page-loading';
import { useContentTitle, useRoutePage } from '../content/route-data';
import { NotFoundPage } from './not-found-page';

export type ContentPageProps = { match: Extract<RouteMatch, { kind: 'content' | 'blog' | 'post' | 'offer' }> };

/** Pages every site has: without a stored page they list the site's locations, and are never a 404. */
const locationPages = new Set(['dealerships', 'our-locations']);

function StoredPage({ page }: { page: ResolvedPage }) {
  useContentTitle(page.title, page.document_title);
  return (
    <div className="dp-container content-page">
      <h1>{page.title}</h1>
      <PageBlocks blocks={page.blocks} />
    </div>
  );
}

function PostPage({ page }: { page: ResolvedPage }) {
  const site = useAppSelector(selectSite);
  useContentTitle(page.title, page.document_title);
  const post = page.post;
  return (
    <article className="dp-container content-page content-post">
      <h1>{page.title}</h1>
      {post && (
        <p className="content-meta">
          <time dateTime={isoDay(post.published_at)}>{formatDay(post.published_at, site.locale)}</time>
          {post.author && ` · ${post.author}`}
        </p>
      )}
      {post?.image && (
        <figure className="content-image">
          <WideImage image={post.image} priority />
        </figure>
      )}
      <PageBlocks blocks={page.blocks} heroIsMain={!post?.image} />
    </article>
  );
}

function OfferPage({ page }: { page: ResolvedPage }) {
  const site = useAppSelector(selectSite);
  useContentTitle(page.title, page.document_title);
  const offer = page.offer;
  return (
    <article className="dp-container content-page content-offer">
      <h1>{page.title}</h1>
      {offer?.image && (
        <figure className="content-image">
          <WideImage image={offer.image} priority />
        </figure>
      )}
      {offer && <p className="content-offer__ends">{`Ends ${formatDay(offer.expires_at, site.locale)}`}</p>}
      <PageBlocks blocks={page.blocks} heroIsMain={!offer?.image} />
      {offer && offer.cars.length > 0 && (
        <section className="content-block">
          <h2>Vehicles in this offer</h2>
          <CarCards cars={offer.cars} detailPath={offer.detail_path} />
        </section>
      )}
      {offer?.terms_html && (
        <section className="content-block content-offer__terms">
          <h2>Terms and conditions</h2>
          <RichHtml html={offer.terms_html} />
        </section>
      )}
    </article>
  );
}

/** SPEC §5: the first page has no number (`/blog`), the others `?page=N`. */
const listPageAddress = (base: string, page: number) => (page > 1 ? `${base}?page=${page}` : base);

function BlogPage({ page }: { page: ResolvedPage }) {
  const blog = page.blog ?? { section: 'blog' as const, posts: [], page: 1, pages: 1 };
  const title = page.title || 'Latest News';
  useContentTitle(blog.page > 1 ? `${title}, page ${blog.page}` : title, page.document_title);
  const base = `/${blog.section}`;
  return (
    <div className="dp-container content-page content-blog">
      <h1>{title}</h1>
      <PageBlocks blocks={page.blocks} />
      {blog.posts.length > 0 ? (
        <PostCards posts={blog.posts} section={blog.section} headingLevel="h2" />
      ) : (
        <p>There is no news yet. Please check back soon.</p>
      )}
      {blog.pages > 1 && (
        <nav className="content-paging" aria-label="News pages">
          {blog.page > 1 && (
            <Link rel="prev" to={listPageAddress(base, blog.page - 1)}>
              Newer posts
            </Link>
          )}
          <span>{`Page ${blog.page} of ${blog.pages}`}</span>
          {blog.page < blog.pages && (
            <Link rel="next" to={listPageAddress(base, blog.page + 1)}>
              Older posts
            </Link>
          )}
        </nav>
      )}
    </div>
  );
}

/** The site's locations, for the system pages the dealer has written nothing for. */
function LocationsPage({ page }: { page: string }) {
  const site = useAppSelector(selectSite);
  const title = contentPageTitle(page);
  usePageTitle(title, site.name);
  return (
    <div className="dp-container content-page" data-page={page}>
      <h1>{title}</h1>
      <LocationList />
    </div>
  );
}

function PageFailed({ retry }: { retry: () => void }) {
  return (
    <div className="dp-container content-page">
      <h1>This page did not load</h1>
      <p>We could not reach the dealership’s website. Check your connection and try again.</p>
      <Button onClick={retry}>Try again</Button>
    </div>
  );
}

/**
 * The dealer's own pages (issue 24): a page of blocks, a news post, a special offer or the news list,
 * as the server resolved them (the first with the document, later ones from `/api/pages`). No page
 * at the address is a 404, except the locations pages every site has.
 */
export function ContentPage({ match }: ContentPageProps) {
  const location = useLocation();
  const state = useRoutePage(`${location.pathname}${location.search}`);
  if (state.status === 'loading') return <PageLoading />;
  if (state.status === 'failed') return <PageFailed retry={state.retry} />;
  const page = state.page;
  if (!page) return match.kind === 'content' && locationPages.has(match.page) ? <LocationsPage page={match.page} /> : <NotFoundPage />;
  switch (page.kind) {
    case 'post':
      return <PostPage page={page} />;
    case 'offer':
      return <OfferPage page={page} />;
    case 'blog':
      return <BlogPage page={page} />;
    default:
      return <StoredPage page={page} />;
  }
}
