import type { SiteLocale } from '@dealer/contracts/site';
import { t } from '@dealer/rules/locale';

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
};

export const facetLabel = (facet: string, locale: SiteLocale) => t(locale, labels[facet] ?? facet.replace(/_/g, ' ').replace(/^\w/, (c) => c.toUpperCase()));

const typeLabels: Record<string, string> = { new: 'New', used: 'Used', demo: 'Demo' };
export const facetValueLabel = (facet: string, value: string, locale: SiteLocale) =>
  facet === 'car_type' ? (typeLabels[value] ?? value) : facet === 'certified' ? (value === 'true' ? 'Certified' : 'Not certified') : t(locale, value);
