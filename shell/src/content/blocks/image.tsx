import type { ContentBlock } from '@dealer/contracts/content';
import { cardWidths, deviceWidths, imageQuality, imageSrcSet, imageUrl, mainImageTiming } from '@dealer/rules/images';

type ContentImageProps = {
  image: { src: string; alt: string };
  /** The box the picture fills (its proportions): the page keeps the room before it arrives. */
  width: number;
  height: number;
  sizes: string;
  widths?: readonly number[];
  /** The page's main picture (its largest paint): fetched at once, first, and named for app-start.ts. */
  priority?: boolean;
  className?: string;
};

/** A picture the dealer uploaded, at the widths the image endpoint serves; lazy unless it is the page's main one. */
export function ContentImage({ image, width, height, sizes, widths = cardWidths, priority = false, className }: ContentImageProps) {
  return (
    <img
      className={className}
      // The main picture's fallback address is the one the document preloads (platform render-document.ts).
      src={imageUrl(image.src, priority ? 828 : width, imageQuality.standard)}
      srcSet={imageSrcSet(image.src, widths, imageQuality.standard)}
      sizes={sizes}
      width={width}
      height={height}
      alt={image.alt}
      loading={priority ? 'eager' : 'lazy'}
      decoding={priority ? 'sync' : 'async'}
      fetchPriority={priority ? 'high' : 'auto'}
      // Not in React's img props; a spread passes it through as the attribute.
      {...(priority ? ({ elementtiming: mainImageTiming } as Record<string, string>) : {})}
    />
  );
}

/** A wide picture of the page's width (a post's or an offer's own picture too). */
export function WideImage({ image, priority = false }: { image: { src: string; alt: string }; priority?: boolean }) {
  return (
    <ContentImage
      className="content-image__picture"
      image={image}
      width={1200}
      height={800}
      sizes="(min-width: 1200px) 1140px, 100vw"
      widths={deviceWidths}
      priority={priority}
    />
  );
}

export function ImageBlock({ block }: { block: Extract<ContentBlock, { type: 'image' }> }) {
  return (
    <figure className="content-image">
      <WideImage image={block.image} />
      {block.caption && <figcaption>{block.caption}</figcaption>}
    </figure>
  );
}
