import type { SiteLocale } from '@dealer/contracts/site';
import { t } from '@dealer/rules/locale';
import { isPriceBandFacet, priceBandLabel } from '@dealer/rules/price-bands';

const labels: Record<string, string> = {
  make: 'Make',
  model: 'Model',
  car_type: 'Condition',
  price: 'Price',
  subscription_price: 'Weekly price',
  km: 'Odometer',
  year: 'Year',
  body: 'Body type',
  fuel: 'Fuel',
  transmission: 'Transmission',
  drive: 'Drive',
  colour: 'Colour',
  seats: 'Seats',
  location_name: 'Location',
  dealership_name: 'Dealership',
  state: 'State',
  city: 'City',
  tag: 'Tag',
  certified: 'Certified',
  badge: 'Badge',
  categories: 'Category',
  price_range: 'Price range',
  weekly_price_range: 'Weekly price range',
};

export const facetLabel = (facet: string, locale: SiteLocale) =>
  t(locale, labels[facet] ?? facet.replace(/_/g, ' ').replace(/^\w/, (c) => c.toUpperCase()));

const typeLabels: Record<string, string> = { new: 'New', used: 'Used', demo: 'Demo' };
export function facetValueLabel(facet: string, value: string, locale: SiteLocale): string {
  if (facet === 'car_type') return typeLabels[value] ?? value;
  if (facet === 'certified') return value === 'true' ? 'Certified' : 'Not certified';
  if (isPriceBandFacet(facet)) return priceBandLabel(facet, value);
  return t(locale, value);
}
