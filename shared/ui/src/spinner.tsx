import type { VehicleCategory } from '@dealer/contracts/car';

const vehicleIcon: Record<VehicleCategory, string> = {
  car: 'M3 13l2-5a2 2 0 0 1 2-1h10a2 2 0 0 1 2 1l2 5v4h-2a2 2 0 0 1-4 0H9a2 2 0 0 1-4 0H3z',
  subscription: 'M3 13l2-5a2 2 0 0 1 2-1h10a2 2 0 0 1 2 1l2 5v4h-2a2 2 0 0 1-4 0H9a2 2 0 0 1-4 0H3z',
  rental: 'M3 13l2-5a2 2 0 0 1 2-1h10a2 2 0 0 1 2 1l2 5v4h-2a2 2 0 0 1-4 0H9a2 2 0 0 1-4 0H3z',
  truck: 'M2 6h11v9h1V9h4l3 4v4h-2a2 2 0 0 1-4 0H8a2 2 0 0 1-4 0H2z',
  camper: 'M2 6h14l4 5v6h-2a2 2 0 0 1-4 0H8a2 2 0 0 1-4 0H2z',
  motorcycle: 'M5 17a3 3 0 1 1 0-6 3 3 0 0 1 0 6zm14 0a3 3 0 1 1 0-6 3 3 0 0 1 0 6zM8 14l3-5h4l2 3',
};

/**
 * Loading indicator: a vehicle of the site's category driving along, or a plain spinner
 * on sites that ask for one (SPEC §2).
 */
export function Spinner({ category, plain = false, label = 'Loading' }: { category?: VehicleCategory; plain?: boolean; label?: string }) {
  if (plain || !category) {
    return (
      <span className="dp-loader" role="status">
        <span className="dp-spinner" aria-hidden="true" />
        <span className="dp-visually-hidden">{label}</span>
      </span>
    );
  }
  return (
    <span className="dp-loader dp-loader--vehicle" role="status" data-category={category}>
      <svg viewBox="0 0 24 24" width="48" height="48" aria-hidden="true" className="dp-loader__vehicle">
        <path d={vehicleIcon[category]} fill="currentColor" />
      </svg>
      <span className="dp-visually-hidden">{label}</span>
    </span>
  );
}
