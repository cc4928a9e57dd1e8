import { cardWidths, imageSrcSet, imageUrl, imageQuality, mainImageTiming } from '@dealer/rules/images';

type VehicleImageProps = {
  path: string;
  alt: string;
  width: number;
  height: number;
  sizes: string;
  /** The first image on screen: eager with high fetch priority (LCP); the rest lazy. */
  priority?: boolean;
  widths?: readonly number[];
  className?: string;
};

/** Responsive vehicle photo through the image endpoint, with explicit size to avoid layout shift. */
export function VehicleImage({ path, alt, width, height, sizes, priority = false, widths = cardWidths, className }: VehicleImageProps) {
  return (
    <img
      className={className}
      src={imageUrl(path, width, imageQuality.standard)}
      srcSet={imageSrcSet(path, widths)}
      sizes={sizes}
      width={width}
      height={height}
      alt={alt}
      loading={priority ? 'eager' : 'lazy'}
      decoding={priority ? 'sync' : 'async'}
      fetchPriority={priority ? 'high' : 'auto'}
      // Not in React's img props; a spread is passed through as the attribute.
      {...(priority ? ({ elementtiming: mainImageTiming } as Record<string, string>) : {})}
    />
  );
}
