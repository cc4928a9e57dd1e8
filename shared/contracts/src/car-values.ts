// Plain values only (no zod), so browser bundles can import them without the schema library.

export const carTypes = ['new', 'used', 'demo'] as const;
export const carStatuses = ['in_stock', 'coming_soon', 'sold'] as const;
export const vehicleCategories = ['car', 'truck', 'motorcycle', 'camper', 'subscription', 'rental'] as const;

/** SPEC §5: letters, digits, hyphen and underscore only. */
export const carSlugPattern = /^[A-Za-z0-9_-]+$/;
