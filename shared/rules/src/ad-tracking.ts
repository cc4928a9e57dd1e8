import type { Car } from '@dealer/contracts/car';

/** SPEC §9: ad-tracking currency. */
export const adTrackingCurrency = 'AUD';

export type AdContent = {
  content_ids: string[];
  quantity: 1;
  currency: string;
  value: number;
  content_type: 'product';
  content_name: string;
  search_string?: string;
};

/** SPEC §3 ad-tracking content payload: stock number as the content id, quantity 1, AUD, value = price. */
export function adTrackingContent(car: Pick<Car, 'stocknum' | 'price' | 'name'>, searchString?: string): AdContent {
  return {
    content_ids: [car.stocknum],
    quantity: 1,
    currency: adTrackingCurrency,
    value: car.price,
    content_type: 'product',
    content_name: car.name,
    ...(searchString ? { search_string: searchString } : {}),
  };
}
