// Plain values only (no zod), so browser bundles can import them without the schema library.

export const carTypes = ['new', 'used', 'demo'] as const;
export const carStatuses = ['in_stock', 'coming_soon', 'sold'] as const;
export const vehicleCategories = ['car', 'truck', 'motorcycle', 'camper', 'subscription', 'rental'] as const;

/** SPEC §5: letters, digits, hyphen and underscore only. */
export const carSlugPattern = /^[A-Za-z0-9_-]+$/;

/** SPEC §3 search facets: the only facets a site's search page may offer (the index can filter on each). */
export const searchFacetNames = [
  'status',
  'badge',
  'car_type',
  'categories',
  'city',
  'colour',
  'dealership_name',
  'filtered_features',
  'item_type',
  'km',
  'location_name',
  'make',
  'make_model',
  'model',
  'price',
  'price_range',
  'subscription_price',
  'seats',
  'body',
  'drive',
  'fuel',
  'transmission',
  'state',
  'tag',
  'weekly_price_range',
  'year',
  'certified',
  'created_at_timestamp',
] as const;
