import type { Weighted } from './prng';

/**
 * What a dealer can have in stock. Cars are split by market because US stock and prices
 * (pickups, USD) would look wrong on an Australian site and the other way round.
 */
export type CatalogueKind = 'car-au' | 'car-us' | 'truck' | 'motorcycle' | 'camper';

export type ModelSpec = {
  make: string;
  model: string;
  series: string | null;
  /** simple_body, also the body part of the photo path. */
  body: string;
  /** Cheapest first: a badge's position places its price inside `price`. null is the plain model, named without a badge. */
  badges: readonly (string | null)[];
  fuels: readonly Weighted<string>[];
  transmissions: readonly string[];
  drives: readonly string[];
  seats: readonly number[];
  /** New price range in the site's currency, entry badge to top badge. */
  price: readonly [number, number];
  /** First model year of this generation, so used stock is never older than the model. */
  since: number;
  /** Relative share of a dealer's stock. */
  weight: number;
  /** Towed caravans have no odometer; feeds send 0 km for them. */
  odometer: boolean;
};

type ModelInput = Pick<ModelSpec, 'make' | 'model' | 'body' | 'badges' | 'price' | 'since'> & Partial<ModelSpec>;

const spec = (input: ModelInput): ModelSpec => ({
  series: null,
  fuels: petrol,
  transmissions: ['Automatic'],
  drives: ['FWD'],
  seats: [5],
  weight: 1,
  odometer: true,
  ...input,
});

const petrol: readonly Weighted<string>[] = [['Petrol', 1]];
const diesel: readonly Weighted<string>[] = [['Diesel', 1]];
const electric: readonly Weighted<string>[] = [['Electric', 1]];
const hybrid: readonly Weighted<string>[] = [['Hybrid', 1]];
const notApplicable: readonly Weighted<string>[] = [['N/A', 1]];

/** The 14 franchises of the embedded dealer group (SPEC §1). */
export const groupManufacturers = [
  'Toyota',
  'Mazda',
  'Hyundai',
  'Kia',
  'Ford',
  'Mitsubishi',
  'Nissan',
  'Subaru',
  'Volkswagen',
  'Honda',
  'Isuzu',
  'MG',
  'BMW',
  'Mercedes-Benz',
] as const;

// Prices are 2025 Australian drive-away ranges, rounded; close enough for a demo, not a quote.
const australianCars: readonly ModelSpec[] = [
  spec({ make: 'Toyota', model: 'Corolla', series: 'ZWE219R', body: 'Hatch', badges: ['Ascent Sport', 'SX', 'ZR'], fuels: [['Hybrid', 3], ['Petrol', 1]], price: [32000, 42000], since: 2019, weight: 3 }),
  spec({ make: 'Toyota', model: 'Camry', series: 'AXVH71R', body: 'Sedan', badges: ['Ascent', 'SL', 'SX'], fuels: hybrid, price: [39000, 52000], since: 2018, weight: 2 }),
  spec({ make: 'Toyota', model: 'RAV4', series: 'AXAH54R', body: 'SUV', badges: ['GX', 'GXL', 'XSE', 'Cruiser', 'Edge'], fuels: [['Hybrid', 4], ['Petrol', 1]], drives: ['FWD', 'AWD'], price: [41000, 62000], since: 2019, weight: 5 }),
  spec({ make: 'Toyota', model: 'HiLux', series: 'GUN126R', body: 'Ute', badges: ['Workmate', 'SR', 'SR5', 'Rogue', 'GR Sport'], fuels: diesel, transmissions: ['Automatic', 'Automatic', 'Manual'], drives: ['4x4', '4x4', '4x2'], seats: [5, 5, 2], price: [38000, 82000], since: 2016, weight: 6 }),
  spec({ make: 'Toyota', model: 'LandCruiser', series: 'FJA300R', body: 'SUV', badges: ['GX', 'GXL', 'VX', 'Sahara', 'GR Sport'], fuels: diesel, drives: ['4x4'], seats: [5, 7], price: [100000, 155000], since: 2021, weight: 2 }),
  spec({ make: 'Toyota', model: 'Kluger', series: 'AXUH78R', body: 'SUV', badges: ['GX', 'GXL', 'Grande'], fuels: hybrid, drives: ['AWD'], seats: [7], price: [62000, 85000], since: 2021, weight: 2 }),
  spec({ make: 'Toyota', model: 'Yaris Cross', series: 'MXPJ10R', body: 'SUV', badges: ['GX', 'GXL', 'Urban'], fuels: [['Hybrid', 3], ['Petrol', 1]], drives: ['FWD', 'AWD'], price: [31000, 42000], since: 2020, weight: 3 }),
  spec({ make: 'Toyota', model: 'bZ4X', series: 'XEAM10R', body: 'SUV', badges: ['GXL', 'Touring'], fuels: electric, drives: ['FWD', 'AWD'], price: [58000, 72000], since: 2022, weight: 1 }),
  spec({ make: 'Mazda', model: 'Mazda3', series: 'BP', body: 'Hatch', badges: ['G20 Pure', 'G20 Evolve', 'G25 GT', 'G25 Astina'], transmissions: ['Automatic', 'Automatic', 'Manual'], price: [33000, 46000], since: 2019, weight: 3 }),
  spec({ make: 'Mazda', model: 'CX-3', series: 'DK', body: 'SUV', badges: ['G20 Pure', 'G20 Maxx Sport', 'G20 Akari'], price: [28000, 38000], since: 2016, weight: 2 }),
  spec({ make: 'Mazda', model: 'CX-30', series: 'DM', body: 'SUV', badges: ['G20 Pure', 'G20 Evolve', 'G25 Astina'], drives: ['FWD', 'AWD'], price: [35000, 50000], since: 2020, weight: 3 }),
  spec({ make: 'Mazda', model: 'CX-5', series: 'KF', body: 'SUV', badges: ['Maxx', 'Maxx Sport', 'Touring', 'GT SP', 'Akera'], drives: ['FWD', 'AWD'], price: [38000, 57000], since: 2017, weight: 5 }),
  spec({ make: 'Mazda', model: 'CX-60', series: 'KH', body: 'SUV', badges: ['G40e Evolve', 'D50e GT', 'P50e Azami'], fuels: [['Petrol', 2], ['Diesel', 1], ['Plug-in Hybrid', 1]], drives: ['AWD'], price: [60000, 88000], since: 2023, weight: 1 }),
  spec({ make: 'Mazda', model: 'BT-50', series: 'TF', body: 'Ute', badges: ['XS', 'XT', 'XTR', 'GT', 'Thunder'], fuels: diesel, drives: ['4x4', '4x4', '4x2'], price: [38000, 72000], since: 2020, weight: 3 }),
  spec({ make: 'Mazda', model: 'MX-5', series: 'ND', body: 'Convertible', badges: ['Roadster', 'Roadster GT'], transmissions: ['Manual', 'Automatic'], drives: ['RWD'], seats: [2], price: [42000, 52000], since: 2016, weight: 1 }),
  spec({ make: 'Hyundai', model: 'i30', series: 'PD', body: 'Hatch', badges: ['Active', 'Elite', 'N Line', 'N Line Premium'], price: [29000, 40000], since: 2017, weight: 3 }),
  spec({ make: 'Hyundai', model: 'Tucson', series: 'NX4', body: 'SUV', badges: [null, 'Elite', 'N Line', 'Highlander'], fuels: [['Petrol', 3], ['Diesel', 1], ['Hybrid', 1]], drives: ['FWD', 'AWD'], price: [37000, 58000], since: 2021, weight: 4 }),
  spec({ make: 'Hyundai', model: 'Kona', series: 'SX2', body: 'SUV', badges: [null, 'Premium', 'N Line Premium'], fuels: [['Petrol', 2], ['Hybrid', 1], ['Electric', 1]], price: [33000, 62000], since: 2023, weight: 3 }),
  spec({ make: 'Hyundai', model: 'Santa Fe', series: 'MX5', body: 'SUV', badges: [null, 'Elite', 'Calligraphy'], fuels: [['Hybrid', 2], ['Petrol', 1]], drives: ['AWD'], seats: [7], price: [55000, 78000], since: 2024, weight: 2 }),
  spec({ make: 'Hyundai', model: 'IONIQ 5', series: 'NE', body: 'SUV', badges: ['Dynamiq', 'Techniq', 'Epiq', 'N'], fuels: electric, drives: ['RWD', 'AWD'], price: [64000, 115000], since: 2021, weight: 1 }),
  spec({ make: 'Hyundai', model: 'Venue', series: 'QX', body: 'SUV', badges: [null, 'Active', 'Elite'], price: [25000, 32000], since: 2019, weight: 2 }),
  spec({ make: 'Hyundai', model: 'Staria', series: 'US4', body: 'People Mover', badges: [null, 'Elite', 'Highlander'], fuels: diesel, drives: ['FWD', 'AWD'], seats: [8], price: [52000, 75000], since: 2021, weight: 1 }),
  spec({ make: 'Kia', model: 'Sportage', series: 'NQ5', body: 'SUV', badges: ['S', 'SX', 'SX+', 'GT-Line'], fuels: [['Petrol', 3], ['Diesel', 1], ['Hybrid', 1]], drives: ['FWD', 'AWD'], price: [36000, 56000], since: 2021, weight: 4 }),
  spec({ make: 'Kia', model: 'Seltos', series: 'SP2', body: 'SUV', badges: ['S', 'Sport', 'Sport+', 'GT-Line'], drives: ['FWD', 'AWD'], price: [30000, 44000], since: 2020, weight: 3 }),
  spec({ make: 'Kia', model: 'Cerato', series: 'BD', body: 'Hatch', badges: ['S', 'Sport', 'Sport+', 'GT'], price: [27000, 38000], since: 2018, weight: 2 }),
  spec({ make: 'Kia', model: 'Sorento', series: 'MQ4', body: 'SUV', badges: ['S', 'Sport', 'Sport+', 'GT-Line'], fuels: [['Petrol', 2], ['Diesel', 2], ['Hybrid', 1], ['Plug-in Hybrid', 1]], drives: ['AWD'], seats: [7], price: [52000, 80000], since: 2020, weight: 2 }),
  spec({ make: 'Kia', model: 'Carnival', series: 'KA4', body: 'People Mover', badges: ['S', 'Si', 'SLi', 'GT-Line'], fuels: [['Diesel', 2], ['Petrol', 1], ['Hybrid', 1]], seats: [8], price: [52000, 78000], since: 2021, weight: 2 }),
  spec({ make: 'Kia', model: 'EV6', series: 'CV', body: 'SUV', badges: ['Air', 'GT-Line', 'GT'], fuels: electric, drives: ['RWD', 'AWD'], price: [68000, 105000], since: 2022, weight: 1 }),
  spec({ make: 'Kia', model: 'Picanto', series: 'JA', body: 'Hatch', badges: ['S', 'GT-Line'], transmissions: ['Automatic', 'Manual'], price: [18000, 23000], since: 2017, weight: 1 }),
  spec({ make: 'Ford', model: 'Ranger', series: 'PY', body: 'Ute', badges: ['XL', 'XLS', 'XLT', 'Sport', 'Wildtrak', 'Raptor'], fuels: diesel, drives: ['4x4', '4x4', '4x2'], seats: [5, 5, 2], price: [38000, 95000], since: 2022, weight: 7 }),
  spec({ make: 'Ford', model: 'Everest', series: 'UB', body: 'SUV', badges: ['Ambiente', 'Trend', 'Sport', 'Platinum'], fuels: diesel, drives: ['4x4', 'RWD'], seats: [7], price: [55000, 82000], since: 2022, weight: 3 }),
  spec({ make: 'Ford', model: 'Mustang', series: 'S650', body: 'Coupe', badges: ['GT', 'Dark Horse'], transmissions: ['Automatic', 'Manual'], drives: ['RWD'], seats: [4], price: [72000, 100000], since: 2024, weight: 1 }),
  spec({ make: 'Ford', model: 'Puma', series: 'JK', body: 'SUV', badges: [null, 'ST-Line', 'ST-Line V'], price: [33000, 42000], since: 2020, weight: 1 }),
  spec({ make: 'Ford', model: 'Transit Custom', series: 'VO', body: 'Van', badges: ['Trend', 'Sport'], fuels: diesel, seats: [3], price: [50000, 68000], since: 2024, weight: 1 }),
  spec({ make: 'Ford', model: 'Mustang Mach-E', body: 'SUV', badges: ['Select', 'Premium', 'GT'], fuels: electric, drives: ['RWD', 'AWD'], price: [68000, 98000], since: 2023, weight: 1 }),
  spec({ make: 'Mitsubishi', model: 'Triton', series: 'MV', body: 'Ute', badges: ['GLX', 'GLX+', 'GLS', 'GSR'], fuels: diesel, transmissions: ['Automatic', 'Automatic', 'Manual'], drives: ['4x4', '4x4', '4x2'], price: [36000, 66000], since: 2024, weight: 4 }),
  spec({ make: 'Mitsubishi', model: 'Outlander', series: 'ZM', body: 'SUV', badges: ['ES', 'LS', 'Aspire', 'Exceed', 'Exceed Tourer'], fuels: [['Petrol', 3], ['Plug-in Hybrid', 1]], drives: ['FWD', 'AWD'], seats: [5, 7], price: [38000, 66000], since: 2021, weight: 4 }),
  spec({ make: 'Mitsubishi', model: 'ASX', series: 'XD', body: 'SUV', badges: ['MR', 'ES', 'LS', 'Exceed'], price: [27000, 37000], since: 2020, weight: 2 }),
  spec({ make: 'Mitsubishi', model: 'Eclipse Cross', series: 'YB', body: 'SUV', badges: ['ES', 'LS', 'Aspire', 'Exceed'], fuels: [['Petrol', 2], ['Plug-in Hybrid', 1]], drives: ['FWD', 'AWD'], price: [32000, 50000], since: 2021, weight: 1 }),
  spec({ make: 'Mitsubishi', model: 'Pajero Sport', series: 'QF', body: 'SUV', badges: ['GLX', 'GLS', 'Exceed', 'GSR'], fuels: diesel, drives: ['4x4'], seats: [5, 7], price: [50000, 65000], since: 2019, weight: 2 }),
  spec({ make: 'Nissan', model: 'Navara', series: 'D23', body: 'Ute', badges: ['SL', 'ST', 'ST-X', 'PRO-4X', 'Warrior'], fuels: diesel, drives: ['4x4', '4x4', '4x2'], price: [40000, 72000], since: 2021, weight: 3 }),
  spec({ make: 'Nissan', model: 'X-Trail', series: 'T33', body: 'SUV', badges: ['ST', 'ST-L', 'Ti', 'Ti-L'], fuels: [['Petrol', 3], ['Hybrid', 1]], drives: ['FWD', 'AWD'], seats: [5, 7], price: [38000, 62000], since: 2022, weight: 3 }),
  spec({ make: 'Nissan', model: 'Qashqai', series: 'J12', body: 'SUV', badges: ['ST', 'ST+', 'Ti', 'N-Design'], fuels: [['Petrol', 3], ['Hybrid', 1]], price: [35000, 52000], since: 2022, weight: 2 }),
  spec({ make: 'Nissan', model: 'Patrol', series: 'Y62', body: 'SUV', badges: ['Ti', 'Ti-L', 'Warrior'], drives: ['4x4'], seats: [8], price: [85000, 110000], since: 2019, weight: 1 }),
  spec({ make: 'Nissan', model: 'LEAF', series: 'ZE1', body: 'Hatch', badges: [null, 'e+'], fuels: electric, price: [52000, 64000], since: 2019, weight: 1 }),
  spec({ make: 'Nissan', model: 'Juke', series: 'F16', body: 'SUV', badges: ['ST', 'ST+', 'Ti'], price: [31000, 40000], since: 2020, weight: 1 }),
  spec({ make: 'Subaru', model: 'Forester', body: 'SUV', badges: ['2.5i', '2.5i-L', '2.5i Premium', 'Hybrid L', '2.5i Sport', 'Hybrid S'], fuels: [['Petrol', 3], ['Hybrid', 1]], drives: ['AWD'], price: [42000, 56000], since: 2018, weight: 3 }),
  spec({ make: 'Subaru', model: 'Outback', series: 'BT', body: 'Wagon', badges: ['AWD', 'AWD Sport', 'AWD Touring', 'AWD Touring XT'], drives: ['AWD'], price: [47000, 63000], since: 2021, weight: 2 }),
  spec({ make: 'Subaru', model: 'Crosstrek', series: 'G6', body: 'SUV', badges: ['2.0R', '2.0R-L', '2.0S', 'Hybrid S'], fuels: [['Petrol', 3], ['Hybrid', 1]], drives: ['AWD'], price: [37000, 47000], since: 2023, weight: 2 }),
  spec({ make: 'Subaru', model: 'WRX', series: 'VB', body: 'Sedan', badges: [null, 'RS', 'tS'], transmissions: ['Manual', 'Automatic'], drives: ['AWD'], price: [57000, 70000], since: 2022, weight: 1 }),
  spec({ make: 'Subaru', model: 'BRZ', series: 'ZD8', body: 'Coupe', badges: [null, 'S'], transmissions: ['Manual', 'Automatic'], drives: ['RWD'], seats: [4], price: [44000, 50000], since: 2022, weight: 1 }),
  spec({ make: 'Volkswagen', model: 'Golf', series: 'Mk8', body: 'Hatch', badges: ['Life', 'R-Line', 'GTI', 'R'], price: [36000, 75000], since: 2021, weight: 3 }),
  spec({ make: 'Volkswagen', model: 'Tiguan', body: 'SUV', badges: ['110TSI Life', '162TSI Elegance', '162TSI R-Line'], drives: ['FWD', 'AWD'], price: [45000, 70000], since: 2017, weight: 3 }),
  spec({ make: 'Volkswagen', model: 'T-Roc', series: 'A1', body: 'SUV', badges: ['CityLife', 'Style', 'R-Line', 'R'], price: [37000, 62000], since: 2020, weight: 2 }),
  spec({ make: 'Volkswagen', model: 'Amarok', series: 'NF', body: 'Ute', badges: ['Core', 'Life', 'Style', 'PanAmericana', 'Aventura'], fuels: diesel, drives: ['4x4'], price: [52000, 85000], since: 2023, weight: 3 }),
  spec({ make: 'Volkswagen', model: 'Polo', series: 'AW', body: 'Hatch', badges: ['Life', 'Style', 'GTI'], price: [28000, 40000], since: 2018, weight: 1 }),
  spec({ make: 'Honda', model: 'Civic', series: 'FL', body: 'Hatch', badges: ['VTi LX', 'e:HEV LX', 'Type R'], fuels: [['Petrol', 2], ['Hybrid', 1]], price: [47000, 75000], since: 2022, weight: 2 }),
  spec({ make: 'Honda', model: 'CR-V', series: 'RS', body: 'SUV', badges: ['VTi', 'VTi X', 'VTi L7', 'e:HEV RS'], fuels: [['Petrol', 3], ['Hybrid', 1]], drives: ['FWD', 'AWD'], seats: [5, 7], price: [45000, 62000], since: 2023, weight: 3 }),
  spec({ make: 'Honda', model: 'HR-V', series: 'RV', body: 'SUV', badges: ['Vi X', 'e:HEV L'], fuels: [['Petrol', 1], ['Hybrid', 1]], price: [37000, 46000], since: 2022, weight: 2 }),
  spec({ make: 'Honda', model: 'ZR-V', series: 'RZ', body: 'SUV', badges: ['Vi', 'VTi L', 'e:HEV LX'], fuels: [['Petrol', 2], ['Hybrid', 1]], price: [40000, 53000], since: 2023, weight: 1 }),
  spec({ make: 'Honda', model: 'Accord', series: 'CY', body: 'Sedan', badges: ['e:HEV RS'], fuels: hybrid, price: [63000, 66000], since: 2023, weight: 1 }),
  spec({ make: 'Isuzu', model: 'D-MAX', series: 'RG', body: 'Ute', badges: ['SX', 'LS-M', 'LS-U', 'X-Terrain', 'Blade'], fuels: diesel, transmissions: ['Automatic', 'Automatic', 'Manual'], drives: ['4x4', '4x4', '4x2'], seats: [5, 5, 2], price: [36000, 78000], since: 2020, weight: 5 }),
  spec({ make: 'Isuzu', model: 'MU-X', series: 'RJ', body: 'SUV', badges: ['LS-M', 'LS-U', 'LS-T'], fuels: diesel, drives: ['4x4', '4x2'], seats: [7], price: [50000, 72000], since: 2021, weight: 3 }),
  spec({ make: 'MG', model: 'MG3', body: 'Hatch', badges: ['Vibe', 'Excite', 'Essence'], fuels: [['Petrol', 2], ['Hybrid', 1]], price: [22000, 30000], since: 2018, weight: 3 }),
  spec({ make: 'MG', model: 'ZS', body: 'SUV', badges: ['Vibe', 'Excite', 'Essence'], fuels: [['Petrol', 3], ['Hybrid', 1], ['Electric', 1]], price: [26000, 40000], since: 2018, weight: 4 }),
  spec({ make: 'MG', model: 'MG4', series: 'EH32', body: 'Hatch', badges: ['Excite 51', 'Essence 64', 'XPOWER'], fuels: electric, drives: ['RWD', 'AWD'], price: [36000, 60000], since: 2023, weight: 2 }),
  spec({ make: 'MG', model: 'HS', body: 'SUV', badges: ['Vibe', 'Excite', 'Essence'], fuels: [['Petrol', 3], ['Plug-in Hybrid', 1]], price: [33000, 50000], since: 2020, weight: 3 }),
  spec({ make: 'BMW', model: '3 Series', series: 'G20', body: 'Sedan', badges: ['320i M Sport', '330e M Sport', '330i M Sport', 'M340i xDrive'], fuels: [['Petrol', 3], ['Plug-in Hybrid', 1]], drives: ['RWD', 'AWD'], price: [75000, 115000], since: 2019, weight: 2 }),
  spec({ make: 'BMW', model: 'X1', series: 'U11', body: 'SUV', badges: ['sDrive18i', 'xDrive20i', 'iX1 xDrive30'], fuels: [['Petrol', 3], ['Electric', 1]], drives: ['FWD', 'AWD'], price: [62000, 85000], since: 2023, weight: 2 }),
  spec({ make: 'BMW', model: 'X3', body: 'SUV', badges: ['20 xDrive', '30e xDrive M Sport', 'M50 xDrive'], fuels: [['Petrol', 3], ['Plug-in Hybrid', 1]], drives: ['AWD'], price: [85000, 130000], since: 2018, weight: 2 }),
  spec({ make: 'BMW', model: 'X5', series: 'G05', body: 'SUV', badges: ['xDrive30d', 'xDrive50e M Sport', 'M60i'], fuels: [['Diesel', 2], ['Plug-in Hybrid', 1], ['Petrol', 1]], drives: ['AWD'], seats: [5, 7], price: [125000, 175000], since: 2019, weight: 2 }),
  spec({ make: 'BMW', model: 'i4', series: 'G26', body: 'Sedan', badges: ['eDrive35', 'eDrive40', 'M50'], fuels: electric, drives: ['RWD', 'AWD'], price: [85000, 115000], since: 2022, weight: 1 }),
  spec({ make: 'Mercedes-Benz', model: 'A-Class', series: 'W177', body: 'Hatch', badges: ['A180', 'A200', 'A250 4MATIC', 'A35 AMG'], price: [52000, 85000], since: 2018, weight: 2 }),
  spec({ make: 'Mercedes-Benz', model: 'C-Class', series: 'W206', body: 'Sedan', badges: ['C200', 'C300', 'C43 AMG'], drives: ['RWD', 'AWD'], price: [80000, 130000], since: 2022, weight: 2 }),
  spec({ make: 'Mercedes-Benz', model: 'GLA', series: 'H247', body: 'SUV', badges: ['200', '250 4MATIC', '35 AMG 4MATIC'], drives: ['FWD', 'AWD'], price: [65000, 90000], since: 2020, weight: 1 }),
  spec({ make: 'Mercedes-Benz', model: 'GLC', series: 'X254', body: 'SUV', badges: ['300 4MATIC', '43 AMG 4MATIC'], drives: ['AWD'], price: [95000, 130000], since: 2023, weight: 2 }),
  spec({ make: 'Mercedes-Benz', model: 'EQA', series: 'H243', body: 'SUV', badges: ['250', '350 4MATIC'], fuels: electric, drives: ['FWD', 'AWD'], price: [75000, 90000], since: 2022, weight: 1 }),
  spec({ make: 'Mercedes-Benz', model: 'Sprinter', series: 'VS30', body: 'Van', badges: ['316 CDI', '319 CDI'], fuels: diesel, drives: ['RWD'], seats: [3], price: [70000, 95000], since: 2018, weight: 1 }),
];

// US list prices in USD.
const americanCars: readonly ModelSpec[] = [
  spec({ make: 'Ford', model: 'F-150', body: 'Pickup', badges: ['XL', 'XLT', 'Lariat', 'Platinum'], fuels: [['Petrol', 4], ['Hybrid', 1]], drives: ['4x4', '4x4', 'RWD'], price: [38000, 75000], since: 2021, weight: 6 }),
  spec({ make: 'Ford', model: 'Explorer', body: 'SUV', badges: ['Active', 'ST-Line', 'Platinum', 'ST'], drives: ['RWD', 'AWD'], seats: [7], price: [40000, 56000], since: 2020, weight: 2 }),
  spec({ make: 'Chevrolet', model: 'Silverado 1500', body: 'Pickup', badges: ['WT', 'LT', 'RST', 'LTZ', 'High Country'], drives: ['4x4', 'RWD'], seats: [5, 6], price: [38000, 68000], since: 2019, weight: 5 }),
  spec({ make: 'Chevrolet', model: 'Tahoe', body: 'SUV', badges: ['LS', 'LT', 'Z71', 'Premier'], drives: ['4x4', 'RWD'], seats: [7, 8], price: [58000, 80000], since: 2021, weight: 2 }),
  spec({ make: 'Ram', model: '1500', body: 'Pickup', badges: ['Tradesman', 'Big Horn', 'Laramie', 'Limited'], drives: ['4x4', 'RWD'], seats: [5, 6], price: [40000, 70000], since: 2019, weight: 4 }),
  spec({ make: 'Toyota', model: 'Tacoma', body: 'Pickup', badges: ['SR', 'SR5', 'TRD Sport', 'TRD Off-Road', 'Limited'], drives: ['4x4', 'RWD'], transmissions: ['Automatic', 'Automatic', 'Manual'], price: [32000, 53000], since: 2016, weight: 4 }),
  spec({ make: 'Toyota', model: 'Camry', body: 'Sedan', badges: ['LE', 'SE', 'XSE'], fuels: [['Hybrid', 2], ['Petrol', 1]], drives: ['FWD', 'AWD'], price: [29000, 37000], since: 2018, weight: 3 }),
  spec({ make: 'Toyota', model: 'RAV4', body: 'SUV', badges: ['LE', 'XLE', 'XLE Premium', 'Limited'], fuels: [['Petrol', 2], ['Hybrid', 2]], drives: ['FWD', 'AWD'], price: [30000, 41000], since: 2019, weight: 4 }),
  spec({ make: 'Honda', model: 'Accord', body: 'Sedan', badges: ['LX', 'SE', 'Sport Hybrid', 'Touring Hybrid'], fuels: [['Petrol', 1], ['Hybrid', 1]], price: [29000, 39000], since: 2018, weight: 2 }),
  spec({ make: 'Honda', model: 'CR-V', body: 'SUV', badges: ['LX', 'EX', 'EX-L', 'Sport Touring Hybrid'], fuels: [['Petrol', 2], ['Hybrid', 1]], drives: ['FWD', 'AWD'], price: [31000, 42000], since: 2017, weight: 3 }),
  spec({ make: 'Nissan', model: 'Altima', body: 'Sedan', badges: ['S', 'SV', 'SR', 'SL'], drives: ['FWD', 'AWD'], price: [27000, 35000], since: 2019, weight: 2 }),
  spec({ make: 'Jeep', model: 'Wrangler', body: 'SUV', badges: ['Sport', 'Sahara', 'Rubicon'], fuels: [['Petrol', 3], ['Plug-in Hybrid', 1]], transmissions: ['Automatic', 'Manual'], drives: ['4x4'], seats: [4, 5], price: [33000, 58000], since: 2018, weight: 2 }),
  spec({ make: 'Jeep', model: 'Grand Cherokee', body: 'SUV', badges: ['Laredo', 'Limited', 'Overland', 'Summit'], drives: ['4x4', 'RWD'], price: [40000, 65000], since: 2021, weight: 2 }),
  spec({ make: 'Tesla', model: 'Model 3', body: 'Sedan', badges: ['Standard Range Plus', 'Long Range', 'Performance'], fuels: electric, drives: ['RWD', 'AWD'], price: [40000, 55000], since: 2018, weight: 2 }),
  spec({ make: 'Tesla', model: 'Model Y', body: 'SUV', badges: ['Long Range', 'Performance'], fuels: electric, drives: ['AWD'], seats: [5, 7], price: [45000, 55000], since: 2020, weight: 2 }),
];

const trucks: readonly ModelSpec[] = [
  spec({ make: 'Isuzu', model: 'N Series', body: 'Cab Chassis', badges: ['NLR 45-150', 'NNR 45-150', 'NPR 75-190', 'NQR 87-190'], fuels: diesel, transmissions: ['Automated Manual', 'Automatic', 'Manual'], drives: ['4x2', '4x2', '4x4'], seats: [3, 3, 7], price: [70000, 110000], since: 2017, weight: 5 }),
  spec({ make: 'Isuzu', model: 'N Series', body: 'Tipper', badges: ['NLR 45-150', 'NPR 75-190'], fuels: diesel, transmissions: ['Automated Manual', 'Manual'], drives: ['4x2'], seats: [3], price: [85000, 115000], since: 2017, weight: 2 }),
  spec({ make: 'Isuzu', model: 'F Series', body: 'Pantech', badges: ['FRR 110-240', 'FSR 140-260', 'FVZ 260-300'], fuels: diesel, transmissions: ['Automated Manual', 'Automatic'], drives: ['4x2', '6x4'], seats: [3], price: [135000, 230000], since: 2017, weight: 3 }),
  spec({ make: 'Hino', model: '300 Series', body: 'Cab Chassis', badges: ['616', '617 Hybrid', '717', '917'], fuels: [['Diesel', 4], ['Hybrid', 1]], transmissions: ['Automatic', 'Manual'], drives: ['4x2'], seats: [3], price: [72000, 105000], since: 2017, weight: 4 }),
  spec({ make: 'Hino', model: '500 Series', body: 'Refrigerated', badges: ['FC 1124', 'FD 1128', 'FE 1426', 'GH 1828'], fuels: diesel, transmissions: ['Automated Manual', 'Automatic'], drives: ['4x2'], seats: [3], price: [140000, 210000], since: 2017, weight: 2 }),
  spec({ make: 'Fuso', model: 'Canter', body: 'Tray', badges: ['515 Wide', '615 Wide', '715 Wide', '918 Wide'], fuels: diesel, transmissions: ['Automated Manual', 'Manual'], drives: ['4x2', '4x4'], seats: [3, 7], price: [68000, 98000], since: 2020, weight: 4 }),
  spec({ make: 'Fuso', model: 'eCanter', body: 'Cab Chassis', badges: ['515', '615', '918'], fuels: electric, drives: ['4x2'], seats: [3], price: [150000, 195000], since: 2023, weight: 1 }),
  spec({ make: 'Fuso', model: 'Fighter', body: 'Tautliner', badges: ['1024', '1627', '2427'], fuels: diesel, transmissions: ['Automated Manual', 'Manual'], drives: ['4x2', '6x4'], seats: [3], price: [150000, 230000], since: 2018, weight: 2 }),
  spec({ make: 'UD', model: 'Quon', body: 'Prime Mover', badges: ['GW 26 460', 'GW 26 490'], fuels: diesel, transmissions: ['Automated Manual'], drives: ['6x4'], seats: [2], price: [260000, 300000], since: 2018, weight: 1 }),
  spec({ make: 'UD', model: 'Croner', body: 'Tipper', badges: ['PKE 250', 'PDE 250'], fuels: diesel, transmissions: ['Automated Manual'], drives: ['4x2', '6x4'], seats: [3], price: [160000, 190000], since: 2019, weight: 1 }),
  spec({ make: 'Kenworth', model: 'T410', body: 'Prime Mover', badges: [null, 'SAR'], fuels: diesel, transmissions: ['Automated Manual', 'Manual'], drives: ['6x4'], seats: [2], price: [280000, 320000], since: 2017, weight: 2 }),
  spec({ make: 'Kenworth', model: 'T610', body: 'Prime Mover', badges: [null, 'SAR'], fuels: diesel, transmissions: ['Automated Manual', 'Manual'], drives: ['6x4'], seats: [2], price: [330000, 390000], since: 2017, weight: 2 }),
  spec({ make: 'Volvo', model: 'FH', body: 'Prime Mover', badges: ['500', '540'], fuels: diesel, transmissions: ['Automated Manual'], drives: ['6x4'], seats: [2], price: [310000, 340000], since: 2021, weight: 2 }),
  spec({ make: 'Mercedes-Benz', model: 'Actros', body: 'Prime Mover', badges: ['2646', '2653'], fuels: diesel, transmissions: ['Automated Manual'], drives: ['6x4'], seats: [2], price: [280000, 330000], since: 2019, weight: 1 }),
  spec({ make: 'Iveco', model: 'Daily', body: 'Van', badges: ['35S16', '50C21', '70C21'], fuels: diesel, transmissions: ['Automatic', 'Manual'], drives: ['RWD'], seats: [3], price: [68000, 105000], since: 2019, weight: 2 }),
];

const motorcycles: readonly ModelSpec[] = [
  spec({ make: 'Honda', model: 'CB500F', body: 'Naked', badges: [null], transmissions: ['Manual'], drives: ['Chain'], seats: [2], price: [9500, 10500], since: 2019, weight: 3 }),
  spec({ make: 'Honda', model: 'Africa Twin', body: 'Adventure', badges: ['CRF1100L', 'CRF1100L DCT', 'CRF1100L Adventure Sports ES'], transmissions: ['Manual', 'Automatic'], drives: ['Chain'], seats: [2], price: [23000, 30000], since: 2020, weight: 2 }),
  spec({ make: 'Honda', model: 'Rebel', body: 'Cruiser', badges: ['500', '1100'], transmissions: ['Manual'], drives: ['Chain'], seats: [2], price: [10000, 17500], since: 2020, weight: 2 }),
  spec({ make: 'Honda', model: 'CRF300', body: 'Dirt', badges: ['L', 'Rally'], transmissions: ['Manual'], drives: ['Chain'], seats: [1], price: [8600, 11000], since: 2021, weight: 2 }),
  spec({ make: 'Yamaha', model: 'MT-07', body: 'Naked', badges: ['LAMS', null], transmissions: ['Manual'], drives: ['Chain'], seats: [2], price: [11500, 12500], since: 2018, weight: 4 }),
  spec({ make: 'Yamaha', model: 'MT-09', body: 'Naked', badges: [null, 'SP'], transmissions: ['Manual'], drives: ['Chain'], seats: [2], price: [16500, 20000], since: 2021, weight: 2 }),
  spec({ make: 'Yamaha', model: 'Tenere 700', body: 'Adventure', badges: [null, 'World Raid'], transmissions: ['Manual'], drives: ['Chain'], seats: [2], price: [18000, 23000], since: 2019, weight: 2 }),
  spec({ make: 'Yamaha', model: 'YZF-R7', body: 'Sport', badges: [null], transmissions: ['Manual'], drives: ['Chain'], seats: [2], price: [14500, 15500], since: 2022, weight: 1 }),
  spec({ make: 'Kawasaki', model: 'Ninja 400', body: 'Sport', badges: [null, 'KRT Edition'], transmissions: ['Manual'], drives: ['Chain'], seats: [2], price: [8500, 9200], since: 2018, weight: 3 }),
  spec({ make: 'Kawasaki', model: 'Z900', body: 'Naked', badges: [null, 'SE'], transmissions: ['Manual'], drives: ['Chain'], seats: [2], price: [15000, 17500], since: 2020, weight: 2 }),
  spec({ make: 'Kawasaki', model: 'KLR650', body: 'Adventure', badges: [null, 'Adventure'], transmissions: ['Manual'], drives: ['Chain'], seats: [2], price: [10000, 12000], since: 2022, weight: 1 }),
  spec({ make: 'Suzuki', model: 'V-Strom', body: 'Adventure', badges: ['650', '650XT', '800DE', '1050DE'], transmissions: ['Manual'], drives: ['Chain'], seats: [2], price: [12000, 22000], since: 2018, weight: 2 }),
  spec({ make: 'Suzuki', model: 'DR650SE', body: 'Dirt', badges: [null], transmissions: ['Manual'], drives: ['Chain'], seats: [1, 2], price: [10000, 10500], since: 2016, weight: 1 }),
  spec({ make: 'Harley-Davidson', model: 'Softail', body: 'Cruiser', badges: ['Street Bob 114', 'Fat Bob 114', 'Fat Boy 114', 'Heritage Classic 114'], transmissions: ['Manual'], drives: ['Belt'], seats: [1, 2], price: [29000, 39000], since: 2018, weight: 3 }),
  spec({ make: 'Harley-Davidson', model: 'Touring', body: 'Touring', badges: ['Road King', 'Street Glide', 'Road Glide'], transmissions: ['Manual'], drives: ['Belt'], seats: [2], price: [40000, 52000], since: 2018, weight: 2 }),
  spec({ make: 'Triumph', model: 'Street Triple', body: 'Naked', badges: ['765 R', '765 RS'], transmissions: ['Manual'], drives: ['Chain'], seats: [2], price: [16500, 21000], since: 2020, weight: 2 }),
  spec({ make: 'Triumph', model: 'Tiger 900', body: 'Adventure', badges: ['GT', 'GT Pro', 'Rally Pro'], transmissions: ['Manual'], drives: ['Chain'], seats: [2], price: [21000, 26000], since: 2020, weight: 2 }),
  spec({ make: 'Triumph', model: 'Bonneville', body: 'Cruiser', badges: ['T100', 'T120'], transmissions: ['Manual'], drives: ['Chain'], seats: [2], price: [17000, 21000], since: 2017, weight: 1 }),
  spec({ make: 'KTM', model: '390 Duke', body: 'Naked', badges: [null], transmissions: ['Manual'], drives: ['Chain'], seats: [2], price: [8500, 9500], since: 2017, weight: 2 }),
  spec({ make: 'KTM', model: '890 Adventure', body: 'Adventure', badges: [null, 'R'], transmissions: ['Manual'], drives: ['Chain'], seats: [2], price: [22000, 26000], since: 2021, weight: 1 }),
  spec({ make: 'Ducati', model: 'Monster', body: 'Naked', badges: [null, 'Plus', 'SP'], transmissions: ['Manual'], drives: ['Chain'], seats: [2], price: [21000, 27000], since: 2021, weight: 1 }),
  spec({ make: 'Ducati', model: 'Multistrada V4', body: 'Touring', badges: [null, 'S', 'Rally'], transmissions: ['Manual'], drives: ['Chain'], seats: [2], price: [33000, 45000], since: 2021, weight: 1 }),
  spec({ make: 'BMW', model: 'R 1300 GS', body: 'Adventure', badges: [null, 'Trophy', 'Option 719'], transmissions: ['Manual'], drives: ['Shaft'], seats: [2], price: [32000, 42000], since: 2024, weight: 1 }),
  spec({ make: 'Vespa', model: 'GTS', body: 'Scooter', badges: ['300', 'Super 300'], transmissions: ['Automatic'], drives: ['Belt'], seats: [2], price: [10500, 12500], since: 2019, weight: 1 }),
];

const campers: readonly ModelSpec[] = [
  spec({ make: 'Jayco', model: 'Journey', body: 'Caravan', badges: ['19.61-3', '21.62-3', '23.66-4 Outback'], fuels: notApplicable, transmissions: ['N/A'], drives: ['Single Axle', 'Tandem Axle'], seats: [2, 4], price: [68000, 92000], since: 2018, weight: 4, odometer: false }),
  spec({ make: 'Jayco', model: 'Starcraft', body: 'Pop Top', badges: ['15.47-3', '17.55-3 Outback'], fuels: notApplicable, transmissions: ['N/A'], drives: ['Single Axle'], seats: [2, 4], price: [48000, 60000], since: 2018, weight: 3, odometer: false }),
  spec({ make: 'Jayco', model: 'Conquest', body: 'Motorhome', badges: ['FA25-3', 'FA30-1'], fuels: diesel, drives: ['FWD'], seats: [2, 4, 6], price: [170000, 215000], since: 2019, weight: 1 }),
  spec({ make: 'Jayco', model: 'Swan', body: 'Camper Trailer', badges: ['Touring', 'Outback'], fuels: notApplicable, transmissions: ['N/A'], drives: ['Single Axle'], seats: [4, 6], price: [34000, 42000], since: 2017, weight: 2, odometer: false }),
  spec({ make: 'Avan', model: 'Aspire', body: 'Caravan', badges: ['503', '553', '655'], fuels: notApplicable, transmissions: ['N/A'], drives: ['Single Axle', 'Tandem Axle'], seats: [2], price: [62000, 80000], since: 2018, weight: 2, odometer: false }),
  spec({ make: 'Avan', model: 'Cruiseliner', body: 'Pop Top', badges: [null, 'Off-Road'], fuels: notApplicable, transmissions: ['N/A'], drives: ['Single Axle'], seats: [2, 4], price: [52000, 62000], since: 2018, weight: 1, odometer: false }),
  spec({ make: 'New Age', model: 'Manta Ray', body: 'Caravan', badges: ['19ER', '21ER', '23ER Family'], fuels: notApplicable, transmissions: ['N/A'], drives: ['Tandem Axle'], seats: [2, 5], price: [78000, 99000], since: 2019, weight: 2, odometer: false }),
  spec({ make: 'New Age', model: 'Big Red', body: 'Caravan', badges: ['19ERS', '21ERS', '22ERS'], fuels: notApplicable, transmissions: ['N/A'], drives: ['Tandem Axle'], seats: [2, 4], price: [95000, 118000], since: 2019, weight: 2, odometer: false }),
  spec({ make: 'Lotus Caravans', model: 'Trooper', body: 'Caravan', badges: ['18', '20', '22 Family'], fuels: notApplicable, transmissions: ['N/A'], drives: ['Tandem Axle'], seats: [2, 4], price: [115000, 145000], since: 2018, weight: 1, odometer: false }),
  spec({ make: 'Kimberley', model: 'Kruiser', body: 'Camper Trailer', badges: ['T3', 'Platinum'], fuels: notApplicable, transmissions: ['N/A'], drives: ['Single Axle'], seats: [2, 4], price: [60000, 95000], since: 2018, weight: 1, odometer: false }),
  spec({ make: 'Sunliner', model: 'Pinnacle', body: 'Motorhome', badges: ['4', '6', '8'], fuels: diesel, drives: ['FWD'], seats: [2, 4], price: [210000, 260000], since: 2019, weight: 1 }),
  spec({ make: 'Winnebago', model: 'Esperance', body: 'Motorhome', badges: ['C7801SL', 'C7802SL'], fuels: diesel, drives: ['FWD'], seats: [2, 4], price: [195000, 230000], since: 2019, weight: 1 }),
  spec({ make: 'Toyota', model: 'HiAce', body: 'Campervan', badges: ['Frontier', 'Trakka Jabiru'], fuels: diesel, drives: ['RWD'], seats: [2, 4], price: [120000, 165000], since: 2019, weight: 1 }),
];

export type KindProfile = {
  models: readonly ModelSpec[];
  colours: readonly Weighted<string>[];
  features: readonly string[];
  /** Typical distance per year of age, for used stock. */
  kmPerYear: readonly [number, number];
  /** Share of value kept per year of age. */
  retention: number;
  /** Oldest used stock a dealer of this kind still lists, in years. */
  maxUsedAge: number;
};

const carColours: readonly Weighted<string>[] = [
  ['White', 10],
  ['Grey', 8],
  ['Silver', 6],
  ['Black', 6],
  ['Blue', 4],
  ['Red', 3],
  ['Green', 1],
  ['Bronze', 1],
  ['Orange', 1],
  ['Yellow', 1],
];

const carFeatures = [
  'Apple CarPlay',
  'Android Auto',
  'Reversing Camera',
  'Bluetooth',
  'Cruise Control',
  'Adaptive Cruise Control',
  'Lane Keep Assist',
  'Blind Spot Monitor',
  'Sunroof',
  'Leather Seats',
  'Heated Seats',
  'Tow Bar',
  'Alloy Wheels',
  'Keyless Entry',
  'Push Button Start',
  '360 Camera',
  'Sat Nav',
  'Wireless Charging',
] as const;

export const catalogue: Record<CatalogueKind, KindProfile> = {
  'car-au': { models: australianCars, colours: carColours, features: carFeatures, kmPerYear: [9000, 19000], retention: 0.9, maxUsedAge: 12 },
  'car-us': { models: americanCars, colours: carColours, features: carFeatures, kmPerYear: [15000, 24000], retention: 0.86, maxUsedAge: 10 },
  truck: {
    models: trucks,
    colours: [['White', 12], ['Silver', 2], ['Red', 2], ['Blue', 2], ['Yellow', 1], ['Black', 1]],
    features: ['Air Brakes', 'Exhaust Brake', 'Cruise Control', 'Air Suspension', 'Reversing Camera', 'Bluetooth', 'Tow Hitch', 'Tail Lift', 'Sleeper Cab', 'Fridge Unit'],
    kmPerYear: [40000, 130000],
    retention: 0.9,
    maxUsedAge: 15,
  },
  motorcycle: {
    models: motorcycles,
    colours: [['Black', 8], ['Red', 4], ['Blue', 3], ['White', 3], ['Grey', 3], ['Green', 2], ['Orange', 2], ['Yellow', 1]],
    features: ['ABS', 'Traction Control', 'Quickshifter', 'Cruise Control', 'Heated Grips', 'LED Lighting', 'Riding Modes', 'Panniers', 'TFT Display', 'Bluetooth'],
    kmPerYear: [2500, 9000],
    retention: 0.88,
    maxUsedAge: 12,
  },
  camper: {
    models: campers,
    colours: [['White', 10], ['White & Grey', 4], ['White & Black', 3], ['Silver', 2], ['Charcoal', 1]],
    features: ['Solar Panels', 'Ensuite', 'Air Conditioning', 'Diesel Heater', 'Awning', 'Washing Machine', 'Lithium Battery', 'Off-Grid Ready', 'Bunk Beds', 'Outdoor Kitchen'],
    kmPerYear: [8000, 18000],
    retention: 0.92,
    maxUsedAge: 15,
  },
};

/** Search categories a shopper would expect a vehicle under, from its shape and drivetrain. */
export function vehicleCategoriesOf(input: { body: string; fuel: string; drive: string; seats: number; price: number }): string[] {
  const out = new Set<string>([input.body]);
  if (input.body === 'SUV' || input.body === 'People Mover' || input.seats >= 7) out.add('Family');
  if (input.body === 'Ute' || input.body === 'Pickup' || input.body === 'Van' || input.body === 'Cab Chassis') out.add('Work');
  if (input.drive === '4x4') out.add('4x4');
  if (input.fuel === 'Electric') out.add('Electric');
  if (input.fuel === 'Hybrid' || input.fuel === 'Plug-in Hybrid') out.add('Hybrid');
  if (input.body === 'Hatch' && input.price > 0 && input.price < 30000) out.add('First Car');
  if (input.seats >= 7) out.add('7 Seater');
  if (input.body === 'Caravan' || input.body === 'Pop Top' || input.body === 'Camper Trailer') out.add('Towable');
  if (input.body === 'Prime Mover') out.add('Heavy Duty');
  return [...out];
}

/** World manufacturer identifiers, so VINs start the way they would on a real feed. */
const vinPrefixes: Record<string, string> = {
  Toyota: 'JTN',
  Mazda: 'JM0',
  Hyundai: 'KMH',
  Kia: 'KNA',
  Ford: 'MPB',
  Mitsubishi: 'MMA',
  Nissan: 'JN1',
  Subaru: 'JF1',
  Volkswagen: 'WVW',
  Honda: 'JHM',
  Isuzu: 'MPA',
  MG: 'LSJ',
  BMW: 'WBA',
  'Mercedes-Benz': 'W1N',
  Chevrolet: '1GC',
  Ram: '1C6',
  Jeep: '1C4',
  Tesla: '5YJ',
  Hino: 'JHH',
  Fuso: 'JLF',
  UD: 'JNC',
  Kenworth: '6F1',
  Volvo: 'YV2',
  Iveco: 'ZCF',
  Yamaha: 'JYA',
  Kawasaki: 'JKA',
  Suzuki: 'JS1',
  'Harley-Davidson': '1HD',
  Triumph: 'SMT',
  KTM: 'VBK',
  Ducati: 'ZDM',
  Vespa: 'ZAP',
  Jayco: '6T9',
  Avan: '6H9',
  'New Age': '6K9',
  'Lotus Caravans': '6L9',
  Kimberley: '6F9',
  Sunliner: '6S9',
  Winnebago: '6W9',
};

export function vinPrefix(make: string): string {
  return vinPrefixes[make] ?? '6U9';
}
