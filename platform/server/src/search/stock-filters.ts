/**
 * SPEC §9 "Stock search filters per dealer site": a site names one of these by its
 * `stock_filter_code` (0 to 14). The filter narrows what the site's search may show and is
 * ANDed with the site's own search filters and its manufacturer filter. A code that matches
 * no entry falls back to the default (0: no extra filter).
 *
 * Every attribute used here must be filterable in `carsIndexSettings` (a test checks it):
 * Meilisearch refuses a tenant token rule on an attribute that is not.
 */
export type StockFilter = {
  code: number;
  /** What the dealer asked for, in their words. */
  label: string;
  /** A Meilisearch filter expression, or null for no restriction. */
  filter: string | null;
};

export const stockFilters: readonly StockFilter[] = [
  { code: 0, label: 'All the stock the site is given', filter: null },
  { code: 1, label: 'Used cars only', filter: 'car_type = used' },
  { code: 2, label: 'New cars only', filter: 'car_type = new' },
  { code: 3, label: 'New and demo cars only', filter: 'car_type IN [new, demo]' },
  { code: 4, label: 'Pre-owned only: used and demo cars', filter: 'car_type IN [used, demo]' },
  { code: 5, label: 'Vehicles in stock only (no coming-soon arrivals)', filter: 'status != coming_soon' },
  { code: 6, label: 'Used cars in stock only', filter: 'car_type = used AND status != coming_soon' },
  { code: 7, label: 'Cars with photos only', filter: 'photos_count > 0' },
  { code: 8, label: 'Priced cars only (no "enquire for price")', filter: 'price > 10' },
  { code: 9, label: 'No demo vehicles', filter: 'car_type != demo' },
  { code: 10, label: 'Passenger vehicles only: no truck makes', filter: 'make NOT IN [Fuso, Hino, Iveco, Kenworth, UD]' },
  {
    code: 11,
    label: "No prestige makes (sold through the group's prestige site)",
    filter: 'make NOT IN [BMW, "Mercedes-Benz", Volvo, Tesla]',
  },
  { code: 12, label: 'No cars with a placeholder stock number (blank, TBA, TBC or 0)', filter: 'stocknum NOT IN ["", TBA, TBC, "0"]' },
  { code: 13, label: 'No Test Drive Only vehicles', filter: 'tag NOT IN ["Test Drive Only", "Test Drive Only*"]' },
  { code: 14, label: 'Used cars under 150,000 km only', filter: 'car_type = used AND km < 150000' },
];

export const defaultStockFilter: StockFilter = stockFilters[0]!;

/** The stock filter a site's code names; the default (no restriction) when the code matches none. */
export function stockFilterFor(code: number | null | undefined): StockFilter {
  return stockFilters.find((entry) => entry.code === code) ?? defaultStockFilter;
}
