/** Body shapes of the generated vehicle photos (car-photo.ts) and the body slugs that name them. */

export type BodyShape =
  'sedan' | 'hatch' | 'wagon' | 'suv' | 'ute' | 'coupe' | 'van' | 'truck' | 'cab-chassis' | 'motorcycle' | 'motorhome' | 'caravan';

/* ------------------------------------------------------------------ bodies */

const bodyAliases: Record<string, BodyShape> = {
  sedan: 'sedan',
  saloon: 'sedan',
  liftback: 'sedan',
  hatch: 'hatch',
  hatchback: 'hatch',
  wagon: 'wagon',
  estate: 'wagon',
  'station-wagon': 'wagon',
  suv: 'suv',
  '4wd': 'suv',
  '4x4': 'suv',
  crossover: 'suv',
  'people-mover': 'van',
  'people-movers': 'van',
  mpv: 'van',
  ute: 'ute',
  pickup: 'ute',
  'pick-up': 'ute',
  'dual-cab': 'ute',
  'single-cab': 'ute',
  'double-cab': 'ute',
  coupe: 'coupe',
  convertible: 'coupe',
  cabriolet: 'coupe',
  roadster: 'coupe',
  sports: 'coupe',
  van: 'van',
  'light-van': 'van',
  bus: 'van',
  'mini-bus': 'van',
  minibus: 'van',
  truck: 'truck',
  pantech: 'truck',
  'box-truck': 'truck',
  'light-truck': 'truck',
  'cab-chassis': 'cab-chassis',
  'cab-chassis-truck': 'cab-chassis',
  tray: 'cab-chassis',
  'tray-top': 'cab-chassis',
  'tray-back': 'cab-chassis',
  tipper: 'cab-chassis',
  'prime-mover': 'cab-chassis',
  motorcycle: 'motorcycle',
  motorbike: 'motorcycle',
  bike: 'motorcycle',
  scooter: 'motorcycle',
  'dirt-bike': 'motorcycle',
  naked: 'motorcycle',
  cruiser: 'motorcycle',
  'sport-touring': 'motorcycle',
  adventure: 'motorcycle',
  camper: 'motorhome',
  campervan: 'motorhome',
  'camper-van': 'motorhome',
  motorhome: 'motorhome',
  'motor-home': 'motorhome',
  rv: 'motorhome',
  caravan: 'caravan',
  'camper-trailer': 'caravan',
  'pop-top': 'caravan',
  'fifth-wheeler': 'caravan',
  trailer: 'caravan',
};

/** Body slugs the drawing knows by name (anything else gets a fallback shape). */
export const namedBodySlugs: readonly string[] = Object.keys(bodyAliases);

/**
 * Silhouette for a category and body slug. The body decides when it is known; otherwise the
 * category (motorcycle, truck, camper) gives a fitting default; everything else draws a sedan.
 */
export function resolveBody(category: string, body: string): BodyShape {
  const slug = body
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  const direct = bodyAliases[slug];
  if (direct) return direct;
  for (const word of slug.split('-')) {
    const hit = bodyAliases[word];
    if (hit) return hit;
  }
  if (category === 'motorcycle') return 'motorcycle';
  if (category === 'truck') return 'truck';
  if (category === 'camper') return 'motorhome';
  return 'sedan';
}
