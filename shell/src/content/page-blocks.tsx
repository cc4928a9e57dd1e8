import type { ResolvedBlock } from '@dealer/contracts/content';
import { KeptMarkup } from '@dealer/ui/kept-markup';
import { FeaturedStockBlock } from './blocks/car-cards';
import { CtaBlock } from './blocks/cta';
import { FaqBlock } from './blocks/faq';
import { HeroBlock } from './blocks/hero';
import { ImageBlock } from './blocks/image';
import { JobsListBlock } from './blocks/jobs-list';
import { LeadFormBlock, leadFormsShown } from './blocks/lead-form';
import { LocationsBlock } from './blocks/locations';
import { OffersListBlock } from './blocks/offers-list';
import { PostsListBlock } from './blocks/posts-list';
import { ReviewsBlock } from './blocks/reviews';
import { RichHtml } from './blocks/rich-html';
import { StaffListBlock } from './blocks/staff-list';

export type PageBlocksProps = {
  blocks: ResolvedBlock[];
  /** The home page: an opening hero's headline is the page's h1, and each block is a full-width section. */
  home?: boolean;
  /** The page's first hero holds its main picture (not when a post or an offer shows its own picture first). */
  heroIsMain?: boolean;
};

function Block({
  block,
  isTitle,
  isMain,
  hasCareersForm,
}: {
  block: ResolvedBlock;
  isTitle: boolean;
  isMain: boolean;
  hasCareersForm: boolean;
}) {
  switch (block.type) {
    case 'rich_text':
      return <RichHtml html={block.html} />;
    case 'image':
      return <ImageBlock block={block} />;
    case 'hero':
      return <HeroBlock block={block} isTitle={isTitle} priority={isMain} />;
    case 'cta':
      return <CtaBlock block={block} />;
    case 'faq':
      return <FaqBlock block={block} />;
    case 'locations':
      return <LocationsBlock block={block} />;
    case 'staff_list':
      return <StaffListBlock block={block} />;
    case 'offers_list':
      return <OffersListBlock block={block} />;
    case 'jobs_list':
      return <JobsListBlock block={block} hasForm={hasCareersForm} />;
    case 'posts_list':
      return <PostsListBlock block={block} />;
    case 'featured_stock':
      return <FeaturedStockBlock block={block} />;
    case 'reviews':
      return <ReviewsBlock block={block} />;
    case 'lead_form':
      return <LeadFormBlock block={block} />;
    default:
      // A block type newer than this shell: the rest of the page still shows.
      return null;
  }
}

/**
 * Blocks with nothing to drive in the browser (their links are anchors the shell routes, their FAQ
 * a native `<details>`): the app keeps their server markup while it hydrates the page. A lead form
 * is a remote's slot, and rich text follows its links through the router with a handler of its own.
 */
const markupOnlyBlocks: ReadonlySet<ResolvedBlock['type']> = new Set([
  'image',
  'hero',
  'cta',
  'faq',
  'locations',
  'staff_list',
  'offers_list',
  'jobs_list',
  'posts_list',
  'featured_stock',
  'reviews',
]);

/** A page's blocks in the dealer's order, each in its own section. */
export function PageBlocks({ blocks, home = false, heroIsMain = true }: PageBlocksProps) {
  const firstHero = heroIsMain ? blocks.find((block) => block.type === 'hero') : undefined;
  const hasCareersForm = leadFormsShown() && blocks.some((block) => block.type === 'lead_form' && block.form === 'careers');
  return (
    <>
      {blocks.map((block, index) => {
        const wide = home && block.type === 'hero';
        return (
          <KeptMarkup
            as="section"
            key={block.id}
            keep={null}
            markupOnly={markupOnlyBlocks.has(block.type) ? `block-${block.id}` : undefined}
            className={`content-block content-block--${block.type.replace(/_/g, '-')}${home && !wide ? ' dp-container' : ''}`}
          >
            <Block block={block} isTitle={home && index === 0} isMain={block === firstHero} hasCareersForm={hasCareersForm} />
          </KeptMarkup>
        );
      })}
    </>
  );
}
