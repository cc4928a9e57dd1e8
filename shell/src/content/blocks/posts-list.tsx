import { SmartLink } from '@dealer/ui/smart-link';
import type { ContentBlock, PostCard } from '@dealer/contracts/content';
import { useAppSelector } from '@dealer/state/hooks';
import { selectSite } from '@dealer/state/site-slice';
import { formatDay, isoDay } from '../content-dates';
import { ContentImage } from './image';

type Section = 'blog' | 'news';

/** Posts as cards opening each post (`/<section>/<slug>`): the news list's page and the posts block share them. */
export function PostCards({ posts, section, headingLevel }: { posts: PostCard[]; section: Section; headingLevel: 'h2' | 'h3' }) {
  const site = useAppSelector(selectSite);
  const Heading = headingLevel;
  return (
    <ul className="content-cards">
      {posts.map((post) => (
        <li key={post.slug} className="content-card">
          <SmartLink to={`/${section}/${post.slug}`} className="content-card__link">
            {post.image && (
              <ContentImage
                className="content-card__picture"
                image={post.image}
                width={480}
                height={320}
                sizes="(min-width: 1200px) 360px, (min-width: 640px) 45vw, 100vw"
              />
            )}
            <Heading>{post.title}</Heading>
          </SmartLink>
          <p className="content-meta">
            <time dateTime={isoDay(post.published_at)}>{formatDay(post.published_at, site.locale)}</time>
          </p>
          {post.summary && <p>{post.summary}</p>}
        </li>
      ))}
    </ul>
  );
}

/** The newest posts, with a link to all of them. */
export function PostsListBlock({
  block,
}: {
  block: Extract<ContentBlock, { type: 'posts_list' }> & { posts: PostCard[]; section: Section };
}) {
  if (block.posts.length === 0) return null;
  return (
    <>
      <PostCards posts={block.posts} section={block.section} headingLevel="h3" />
      <p>
        <SmartLink to={`/${block.section}`}>All news</SmartLink>
      </p>
    </>
  );
}
