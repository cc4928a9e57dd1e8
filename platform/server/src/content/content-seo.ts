/**
 * Structured data of a news post: a schema.org BlogPosting, as Google's Article documentation
 * describes it (headline of at most 110 characters, dates in ISO 8601, image, author, publisher).
 */
import type { SiteConfig } from '@dealer/contracts/site';
import { absoluteUrl } from '../document/seo';

/** Google shows at most 110 characters of an article's headline. */
export const articleHeadlineMaxChars = 110;

export function articleJsonLd(
  site: Pick<SiteConfig, 'name' | 'logo'>,
  post: {
    title: string;
    description: string | null;
    published_at: number;
    updated_at: number;
    author: string | null;
    imageUrl: string | null;
  },
  page: { url: string; origin: string },
): Record<string, unknown> {
  const headline = post.title.length > articleHeadlineMaxChars ? `${post.title.slice(0, articleHeadlineMaxChars - 1)}…` : post.title;
  const publisher = {
    '@type': 'Organization',
    name: site.name,
    ...(site.logo.url ? { logo: { '@type': 'ImageObject', url: absoluteUrl(page.origin, site.logo.url) } } : {}),
  };
  return {
    '@context': 'https://schema.org',
    '@type': 'BlogPosting',
    headline,
    ...(post.description ? { description: post.description } : {}),
    ...(post.imageUrl ? { image: [post.imageUrl] } : {}),
    datePublished: new Date(post.published_at).toISOString(),
    dateModified: new Date(Math.max(post.updated_at, post.published_at)).toISOString(),
    author: post.author ? { '@type': 'Person', name: post.author } : publisher,
    publisher,
    mainEntityOfPage: { '@type': 'WebPage', '@id': page.url },
  };
}
