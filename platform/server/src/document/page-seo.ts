import type { Car } from '@dealer/contracts/car';
import type { SiteConfig, SiteLocale } from '@dealer/contracts/site';
import { formatPrice, isPriceShown } from '@dealer/rules/price';
import { currencyCode, formatDistance } from '@dealer/rules/locale';
import { siteJsonLd, vehicleJsonLd } from '@dealer/rules/vehicle-json-ld';
import type { SocialMeta } from './render-document';
import { absoluteUrl, shareImageSize, shareImageUrl } from './seo';

/**
 * A vehicle page's description, for search results and shared links: the car, its price as the
 * page shows it (SPEC §5), its odometer in the site's unit and where it is.
 * '2021 Toyota Corolla Ascent Sport for sale at Metro Toyota Parramatta, Parramatta: $25,990, 45,120 km.'
 */
export function vehicleDescription(
  car: Pick<Car, 'name' | 'price' | 'preorder' | 'km' | 'location_name' | 'city'>,
  locale: SiteLocale,
): string {
  // 'Enquire for price.' ends a sentence of its own; inside this one it loses its full stop.
  const price = formatPrice(car.price, { preorder: car.preorder, locale }).replace(/\.$/, '');
  const where = [car.location_name, car.city].filter((part, index, parts) => part.trim() && parts.indexOf(part) === index).join(', ');
  return `${car.name} for sale${where ? ` at ${where}` : ''}: ${price}, ${formatDistance(car.km, locale)}.`;
}

/** A vehicle page's share tags (a product, with its photo at 1200 wide) and its schema.org `Car`. */
export function vehicleSeo(
  car: Car,
  site: SiteConfig,
  page: { title: string; description: string; canonicalUrl: string; origin: string },
): { social: SocialMeta; jsonLd: unknown[] } {
  const image = shareImageUrl(page.origin, car.primary_image_url);
  const social: SocialMeta = {
    type: 'product',
    title: page.title,
    description: page.description,
    url: page.canonicalUrl,
    image: image ? { url: image, ...shareImageSize, alt: car.name } : null,
    price: isPriceShown(car.price) ? { amount: car.price, currency: currencyCode(site.locale) } : null,
  };
  return {
    social,
    jsonLd: [vehicleJsonLd(car, site, { url: page.canonicalUrl, imageUrl: image ?? '', now: Math.floor(Date.now() / 1000) })],
  };
}

/** The home page's schema.org `WebSite` and `AutoDealer`. */
export function homeSeo(site: SiteConfig, origin: string): unknown[] {
  return siteJsonLd(site, {
    url: `${origin}/`,
    logoUrl: site.logo.url ? absoluteUrl(origin, site.logo.url) : undefined,
    description: site.seo.description,
  });
}
