import type { VehicleCategory } from '@dealer/contracts/car';

/** SPEC §9: device widths 640 to 3840 (Next-style ladder), max 1280 for the fixed-size loader. */
export const deviceWidths = [640, 750, 828, 1080, 1200, 1920, 2048, 3840] as const;
export const cardWidths = [320, 480, 640, 750, 828, 1080] as const;
export const fixedLoaderMaxWidth = 1280;
/** SPEC §9 image quality: 80 general helper, 75 standard loaders, 60 low-end configs. */
export const imageQuality = { general: 80, standard: 75, lowEnd: 60 } as const;
/** SPEC §9 lazy margin. */
export const lazyMargin = '200px';

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '') || 'other';

/**
 * Path of a generated vehicle photo. The image endpoint draws the picture from the path alone
 * (category, body, colour, variant), so it needs no database and caches forever.
 */
export function vehiclePhotoPath(photo: { category: VehicleCategory; body: string; colour: string; variant: number }): string {
  return `/img/vehicle/${photo.category}/${slug(photo.body)}/${slug(photo.colour)}/${photo.variant}.jpg`;
}

/**
 * The only widths the image endpoint draws (anything else is refused, so nobody can make it
 * render every width there is): the ladders above, thumbnails (160) and the gallery's src (960).
 */
export const servedImageWidths: readonly number[] = [...new Set([160, 960, fixedLoaderMaxWidth, ...cardWidths, ...deviceWidths])].sort(
  (a, b) => a - b,
);
/** The only qualities the image endpoint draws. */
export const servedImageQualities: readonly number[] = [...new Set(Object.values(imageQuality))].sort((a, b) => a - b);

/** The smallest served width at least this wide (the largest for anything wider): a sharp picture, never a refused one. */
export function servedImageWidth(width: number): number {
  return servedImageWidths.find((served) => served >= width) ?? servedImageWidths[servedImageWidths.length - 1]!;
}

/** URL of an image at one width and quality, through the image endpoint. */
export function imageUrl(path: string, width: number, quality: number = imageQuality.standard): string {
  return `${path}?w=${servedImageWidth(width)}&q=${quality}`;
}

/** A srcset over served widths; a width the endpoint does not serve is taken up to the next one it does. */
export function imageSrcSet(path: string, widths: readonly number[] = cardWidths, quality: number = imageQuality.standard): string {
  return [...new Set(widths.map(servedImageWidth))].map((w) => `${imageUrl(path, w, quality)} ${w}w`).join(', ');
}

/**
 * Names a page's main image (VehicleImage's `priority` one) for the Element Timing API: the browser
 * reports when it is painted, and a server-rendered page's code waits for that
 * (shell/src/boot/app-start.ts).
 */
export const mainImageTiming = 'main-image';
