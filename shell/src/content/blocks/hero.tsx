import type { ContentBlock } from '@dealer/contracts/content';
import { deviceWidths } from '@dealer/rules/images';
import { ContentImage } from './image';
import { SiteLink } from './site-link';

type HeroProps = {
  block: Extract<ContentBlock, { type: 'hero' }>;
  /** The home page's opening hero: its headline is the page's h1. */
  isTitle: boolean;
  /** The page's first hero: its picture is the largest paint, so it is fetched at once and first. */
  priority: boolean;
};

/** The wide picture and headline at the top of a page. */
export function HeroBlock({ block, isTitle, priority }: HeroProps) {
  const Heading = isTitle ? 'h1' : 'h2';
  return (
    <div className="content-hero">
      {block.image && (
        <ContentImage
          className="content-hero__picture"
          image={block.image}
          width={1920}
          height={800}
          sizes="100vw"
          widths={deviceWidths}
          priority={priority}
        />
      )}
      <div className="dp-container content-hero__text">
        <Heading>{block.headline}</Heading>
        {block.text && <p>{block.text}</p>}
        {block.cta && (
          <SiteLink to={block.cta.to} className="dp-button dp-button--primary content-hero__cta">
            {block.cta.label}
          </SiteLink>
        )}
      </div>
    </div>
  );
}
