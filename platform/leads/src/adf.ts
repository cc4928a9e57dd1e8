/**
 * A lead as an ADF (Auto-lead Data Format) 1.0 document, the XML every dealer CRM imports.
 *
 * Element order follows the ADF 1.0 DTD: prospect (id*, requestdate, vehicle+, customer, vendor,
 * provider?); vehicle (id*, year, make, model, vin?, stock?, trim?, bodystyle?, transmission?,
 * odometer?, colorcombination*, price?, comments?); contact (name+, email?, phone*, address?);
 * address (street+, city?, regioncode?, postalcode?, country?); vendor (id*, vendorname, url?, contact).
 *
 * Vehicles: the car of interest (from `lead.car`, or named by the payload) as `interest="buy"`
 * (`test-drive` for a test drive booking, `lease` on subscription sites); the shopper's own car as a
 * second `interest="trade-in" status="used"` vehicle. The SPEC's generic names ('Vehicle Make',
 * 'Vehicle Model', Rego, km) describe the shopper's own car on sell/trade-in forms and whenever a
 * rego or odometer reading comes with them; on a car page they repeat the car of interest (the
 * vehicle modal sends them) and are not repeated; on service and parts enquiries they describe the
 * car to be serviced and go into the customer comments. `trade_in_*` / 'Trade-in *' names (or a
 * `trade_in` object) are always the trade-in. ADF requires at least one vehicle, so a lead with none
 * (a general enquiry) carries one with empty year, make and model.
 *
 * Nothing the shopper typed is dropped: fields this module does not map are listed in the customer
 * comments, except internal tracking fields and anything that looks like a card number or secret.
 * The shopper's files are listed there too, each with its download link.
 */
import type { Car } from '@dealer/contracts/car';
import type { Location } from '@dealer/contracts/location';
import type { SiteConfig, SiteLocale } from '@dealer/contracts/site';
import { currencyCode } from '@dealer/rules/locale';
import { vehiclePath } from '@dealer/rules/routes';
import { el, serializeXml, type XmlElement } from './adf-xml';
import { internalKeys, normKey, PayloadReader, payloadText, sensitiveKey, unwrapPayload } from './adf-payload';
import { isRecord } from './is-record';
import type { DeliverableLead } from './deliverable-lead';
import { deliveredFileNames } from './lead-file-links';
import { formatBytes } from './uploads';

/** The platform, as the ADF `provider` and the source of the prospect id. */
export const ADF_PROVIDER_NAME = 'Dealer Platform';
export const ADF_PROVIDER_SERVICE = 'Website';

type Interest = 'buy' | 'lease' | 'sell' | 'trade-in' | 'test-drive';
type VehicleStatus = 'new' | 'used';

type VehicleDesc = {
  interest: Interest;
  status: VehicleStatus;
  ids: { source: string; value: string }[];
  year: string;
  make: string;
  model: string;
  vin: string;
  stock: string;
  trim: string;
  bodystyle: string;
  transmission: string;
  odometer: { value: number; units: 'km' | 'mi' } | null;
  colour: string;
  price: { value: number; currency: string } | null;
  comments: string[];
};

/** Fields the shopper's own vehicle (trade-in or service) may carry. */
type OwnVehicle = {
  make: string;
  model: string;
  year: string;
  trim: string;
  vin: string;
  colour: string;
  rego: string;
  regoState: string;
  km: string;
  miles: string;
  condition: string;
};
const ownVehicleFields = ['make', 'model', 'year', 'trim', 'vin', 'colour', 'rego', 'regoState', 'km', 'miles', 'condition'] as const;

const kmPerMile = 1.609344;
const countries: Record<SiteLocale, string> = { 'en-AU': 'AU', 'en-NZ': 'NZ', 'en-US': 'US' };

/** ISO 8601 in UTC, whole seconds (some CRMs refuse fractional seconds). */
export function adfRequestDate(createdAtMs: number): string {
  return new Date(createdAtMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
const toInt = (text: string): number | null => {
  const digits = text.replace(/[,\s]/g, '').replace(/(km|kms|mi|miles)$/i, '');
  if (!/^\d+(\.\d+)?$/.test(digits)) return null;
  return Math.round(Number(digits));
};
const joinUrl = (base: string, path: string) => `${base.replace(/\/+$/, '')}${path}`;

function statusOf(text: string): VehicleStatus | null {
  if (/\bnew\b/i.test(text)) return 'new';
  if (/used|demo|pre-?owned|second/i.test(text)) return 'used';
  return null;
}

function emptyVehicle(interest: Interest, status: VehicleStatus): VehicleDesc {
  return {
    interest,
    status,
    ids: [],
    year: '',
    make: '',
    model: '',
    vin: '',
    stock: '',
    trim: '',
    bodystyle: '',
    transmission: '',
    odometer: null,
    colour: '',
    price: null,
    comments: [],
  };
}

function carVehicle(car: Car, site: SiteConfig, interest: Interest): VehicleDesc {
  const vehicle = emptyVehicle(interest, car.car_type === 'new' ? 'new' : 'used');
  const us = site.locale === 'en-US';
  vehicle.year = String(car.year);
  vehicle.make = car.make;
  vehicle.model = car.model;
  vehicle.vin = car.vin;
  vehicle.stock = car.stocknum;
  vehicle.trim = car.badge ?? '';
  vehicle.bodystyle = car.simple_body;
  vehicle.transmission = car.simple_transmission;
  vehicle.odometer = { value: us ? Math.round(car.km / kmPerMile) : car.km, units: us ? 'mi' : 'km' };
  vehicle.colour = car.colour;
  vehicle.price = car.price > 0 ? { value: car.price, currency: currencyCode(site.locale) } : null;
  vehicle.comments = [
    car.name,
    car.series ? `Series: ${car.series}` : '',
    car.car_type === 'demo' ? 'Demo vehicle' : '',
    car.tag ?? '',
    car.sold ? 'Sold' : car.reserved ? 'Reserved' : '',
    joinUrl(site.url, vehiclePath(site, car.slug)),
  ].filter(Boolean);
  return vehicle;
}

function ownVehicleFrom(reader: PayloadReader, sellContext: boolean): OwnVehicle {
  return {
    make: reader.peek('Vehicle Make', 'vehicle_make', 'make'),
    model: reader.peek('Vehicle Model', 'vehicle_model', 'model'),
    // A bare 'year' may be a date of birth; only a sell form's is the vehicle's.
    year: reader.peek('Vehicle Year', 'vehicle_year', ...(sellContext ? ['year'] : [])),
    trim: reader.peek('Vehicle Badge', 'vehicle_badge', 'badge', 'variant', 'trim'),
    vin: reader.peek('Vehicle VIN', 'vin'),
    colour: reader.peek('Vehicle Colour', 'Vehicle Color', 'colour', 'color'),
    rego: reader.peek('Rego', 'rego_number', 'registration', 'registration_number', 'plate', 'licence_plate', 'license_plate'),
    regoState: reader.peek('regoState', 'rego_state', 'registration_state'),
    km: reader.peek('km', 'kms', 'kilometres', 'kilometers', 'kilometre', 'odometer', 'Vehicle Km', 'vehicle_kms'),
    miles: reader.peek('mileage', 'miles', 'Vehicle Mileage'),
    condition: reader.peek('condition', 'Vehicle Condition'),
  };
}

const ownVehicleNames: Record<keyof OwnVehicle, string[]> = {
  make: ['Vehicle Make', 'vehicle_make', 'make'],
  model: ['Vehicle Model', 'vehicle_model', 'model'],
  year: ['Vehicle Year', 'vehicle_year', 'year'],
  trim: ['Vehicle Badge', 'vehicle_badge', 'badge', 'variant', 'trim'],
  vin: ['Vehicle VIN', 'vin'],
  colour: ['Vehicle Colour', 'Vehicle Color', 'colour', 'color'],
  rego: ['Rego', 'rego_number', 'registration', 'registration_number', 'plate', 'licence_plate', 'license_plate'],
  regoState: ['regoState', 'rego_state', 'registration_state'],
  km: ['km', 'kms', 'kilometres', 'kilometers', 'kilometre', 'odometer', 'Vehicle Km', 'vehicle_kms'],
  miles: ['mileage', 'miles', 'Vehicle Mileage'],
  condition: ['condition', 'Vehicle Condition'],
};

/** Marks the generic own-vehicle fields that were read as shown. */
function consumeOwn(reader: PayloadReader, own: OwnVehicle, fields: readonly (keyof OwnVehicle)[] = ownVehicleFields): void {
  for (const field of fields) if (own[field]) reader.consume(...ownVehicleNames[field].filter((name) => reader.peek(name) === own[field]));
}

/** Which own-vehicle field a `trade_in_*` / 'Trade-in *' suffix names. */
function tradeField(suffix: string): keyof OwnVehicle | null {
  if (/^(vehicle)?make$/.test(suffix)) return 'make';
  if (/^(vehicle)?model$/.test(suffix)) return 'model';
  if (/^(vehicle)?year$/.test(suffix)) return 'year';
  if (/^(badge|trim|variant|series)$/.test(suffix)) return 'trim';
  if (/^vin$/.test(suffix)) return 'vin';
  if (/^colou?r$/.test(suffix)) return 'colour';
  if (/^(rego|regonumber|registration|registrationnumber|plate)$/.test(suffix)) return 'rego';
  if (/^(regostate|registrationstate)$/.test(suffix)) return 'regoState';
  if (/^(km|kms|kilometres|kilometers|odometer)$/.test(suffix)) return 'km';
  if (/^(mileage|miles)$/.test(suffix)) return 'miles';
  if (/^condition$/.test(suffix)) return 'condition';
  return null;
}

/** Explicit trade-in fields: `trade_in_make`, 'Trade-in Model', tradeInKm, or a `trade_in: {...}` object. */
function explicitTradeIn(reader: PayloadReader): Partial<OwnVehicle> {
  const found: Partial<OwnVehicle> = {};
  for (const [key, value] of reader.entries()) {
    const norm = normKey(key);
    if (!norm.startsWith('tradein')) continue;
    if (norm === 'tradein' && isRecord(value)) {
      for (const [innerKey, innerValue] of Object.entries(value)) {
        const field = tradeField(normKey(innerKey));
        const text = payloadText(innerValue);
        if (field && text && !found[field]) found[field] = text;
      }
      reader.used.add(key);
      continue;
    }
    const field = tradeField(norm.slice('tradein'.length));
    const text = payloadText(value);
    if (field && text) {
      if (!found[field]) found[field] = text;
      reader.used.add(key);
    }
  }
  return found;
}

function tradeInVehicle(trade: Partial<OwnVehicle>): VehicleDesc | null {
  if (!ownVehicleFields.some((field) => trade[field])) return null;
  const vehicle = emptyVehicle('trade-in', 'used');
  vehicle.year = trade.year ?? '';
  vehicle.make = trade.make ?? '';
  vehicle.model = trade.model ?? '';
  vehicle.vin = trade.vin ?? '';
  vehicle.trim = trade.trim ?? '';
  vehicle.colour = trade.colour ?? '';
  const km = trade.km ? toInt(trade.km) : null;
  const miles = trade.miles ? toInt(trade.miles) : null;
  vehicle.odometer = km !== null ? { value: km, units: 'km' } : miles !== null ? { value: miles, units: 'mi' } : null;
  if (trade.rego) vehicle.ids.push({ source: 'registration', value: trade.rego });
  vehicle.comments = [
    trade.rego
      ? `Rego: ${trade.rego}${trade.regoState ? ` (${trade.regoState})` : ''}`
      : trade.regoState
        ? `Rego state: ${trade.regoState}`
        : '',
    vehicle.odometer === null && (trade.km || trade.miles) ? `Odometer: ${trade.km || trade.miles}` : '',
    trade.condition ? `Condition: ${trade.condition}` : '',
  ].filter(Boolean);
  return vehicle;
}

function describeOwn(own: Partial<OwnVehicle>): string {
  const name = [own.year, own.make, own.model, own.trim].filter(Boolean).join(' ');
  return [
    name,
    own.rego ? `rego ${own.rego}${own.regoState ? ` (${own.regoState})` : ''}` : '',
    own.km ? `${own.km} km` : own.miles ? `${own.miles} mi` : '',
    own.vin ? `VIN ${own.vin}` : '',
    own.colour,
    own.condition,
  ]
    .filter(Boolean)
    .join(', ');
}

type VendorPlace = { location: Location | null; from: 'lead' | 'car' | 'site' };

/** The lead's chosen location, else the car's, else the site's primary (or first) location. */
function findLocation(site: SiteConfig, reader: PayloadReader, car: Car | null): VendorPlace {
  const byId = (id: number | null) => (id === null ? null : (site.locations.find((location) => location.id === id) ?? null));
  const chosen = byId(toInt(reader.peek('location_id')));
  if (chosen) return { location: chosen, from: 'lead' };
  const named = reader.peek('location');
  if (named) {
    const wanted = named.toLowerCase();
    const match =
      byId(toInt(named)) ??
      site.locations.find((location) => location.slug.toLowerCase() === wanted || location.name.toLowerCase() === wanted);
    if (match) {
      reader.consume('location');
      return { location: match, from: 'lead' };
    }
  }
  if (car) return { location: byId(car.location_id), from: 'car' };
  return {
    location: site.locations.find((location) => location.primary || location.groupings.includes('primary')) ?? site.locations[0] ?? null,
    from: 'site',
  };
}

function vendorElement(site: SiteConfig, reader: PayloadReader, car: Car | null): XmlElement {
  const { location, from } = findLocation(site, reader, car);
  const slug =
    reader.peek('dealership_slug') ||
    (from === 'car' && car ? car.dealership_slug : '') ||
    site.dealerships.find((dealership) => location !== null && dealership.id === location.dealership_id)?.slug ||
    site.dealerships[0]?.slug ||
    site.slug;
  const dealership = site.dealerships.find((candidate) => candidate.slug === slug);
  // A car whose location is not among the site's locations still names its yard, city and state.
  const carPlace = from === 'car' && location === null && car !== null ? car : null;
  const name = location?.name || carPlace?.location_name || dealership?.name || site.name;
  const phone = location?.contact_detail.phone || location?.contact_detail.landline_phone || site.phone;
  const email = location?.contact_detail.email ?? '';
  const address = location
    ? { street: location.address.street, city: location.address.city, state: location.address.state, postcode: location.address.postcode }
    : { street: '', city: carPlace?.city ?? site.address.city, state: carPlace?.state ?? site.address.state, postcode: '' };
  return el('vendor', {}, [
    el('id', { source: 'dealership' }, slug),
    ...(location?.external_identifiers ?? []).map((identifier) =>
      el('id', { source: identifier.identifier_name }, identifier.primary_code),
    ),
    el('vendorname', {}, name),
    el('url', {}, site.url),
    el('contact', {}, [
      el('name', { part: 'full', type: 'business' }, name),
      email ? el('email', {}, email) : null,
      el('phone', { type: 'voice' }, phone),
      el('address', { type: 'work' }, [
        el('street', { line: '1' }, address.street),
        address.city ? el('city', {}, address.city) : null,
        address.state ? el('regioncode', {}, address.state) : null,
        address.postcode ? el('postalcode', {}, address.postcode) : null,
        el('country', {}, countries[site.locale]),
      ]),
    ]),
  ]);
}

function vehicleElement(vehicle: VehicleDesc): XmlElement {
  return el('vehicle', { interest: vehicle.interest, status: vehicle.status }, [
    ...vehicle.ids.map((id) => el('id', { source: id.source }, id.value)),
    el('year', {}, vehicle.year),
    el('make', {}, vehicle.make),
    el('model', {}, vehicle.model),
    vehicle.vin ? el('vin', {}, vehicle.vin) : null,
    vehicle.stock ? el('stock', {}, vehicle.stock) : null,
    vehicle.trim ? el('trim', {}, vehicle.trim) : null,
    vehicle.bodystyle ? el('bodystyle', {}, vehicle.bodystyle) : null,
    vehicle.transmission ? el('transmission', {}, vehicle.transmission) : null,
    vehicle.odometer ? el('odometer', { units: vehicle.odometer.units }, vehicle.odometer.value) : null,
    vehicle.colour ? el('colorcombination', {}, [el('exteriorcolor', {}, vehicle.colour), el('preference', {}, 1)]) : null,
    vehicle.price ? el('price', { type: 'asking', currency: vehicle.price.currency }, vehicle.price.value) : null,
    vehicle.comments.length > 0 ? el('comments', {}, vehicle.comments.join('\n')) : null,
  ]);
}

function customerNames(reader: PayloadReader): XmlElement[] {
  const first = reader.take('name') || reader.take('first_name', 'firstName', 'First Name');
  reader.consume('name', 'first_name', 'firstName', 'First Name');
  const middle = reader.take('middle_name', 'middleName', 'Middle Name');
  const last = reader.take('last_name', 'lastName', 'Last Name', 'surname');
  if (!last && !middle) return [el('name', { part: first.includes(' ') ? 'full' : 'first', type: 'individual' }, first)];
  return [
    first ? el('name', { part: 'first', type: 'individual' }, first) : null,
    middle ? el('name', { part: 'middle', type: 'individual' }, middle) : null,
    last ? el('name', { part: 'last', type: 'individual' }, last) : null,
  ].filter((name): name is XmlElement => name !== null);
}

export type AdfOptions = {
  /** Said after the list of files, e.g. that they are attached to this e-mail (left out for a lead without files). */
  filesNote?: string;
};

/** The lead as an ADF 1.0 XML document (see the module comment for how fields map). */
export function leadToAdf(lead: DeliverableLead, options: AdfOptions = {}): string {
  const { site, car } = lead;
  const reader = new PayloadReader(unwrapPayload(lead.payload));

  const category = reader.take('category');
  const subcategory = reader.take('subcategory');
  const context = `${category} ${subcategory}`.toLowerCase();
  const sellContext = /sell|trade|valuation|apprais/.test(context);
  const serviceContext = !sellContext && /service|parts|repair/.test(context);
  // A booked time reads in the location's own words ('Mon, 23 Nov 2026, 9:00 am (Australia/Sydney)').
  const bookedTime = reader.take('booking_time');
  const requestedTime = reader.take('dateTime', 'date_time', 'test_drive_date');
  const dateTime = bookedTime || requestedTime;
  const testDrive = !serviceContext && (/test ?drive/.test(context) || dateTime !== '');
  const interest: Interest = testDrive ? 'test-drive' : site.template === 'subscription-cars' ? 'lease' : 'buy';

  const explicitTrade = explicitTradeIn(reader);
  const own = ownVehicleFrom(reader, sellContext);
  const ownedSignals = Boolean(own.rego || own.regoState || own.km || own.miles);
  let interestVehicle = car ? carVehicle(car, site, interest) : null;
  let trade: Partial<OwnVehicle> = explicitTrade;
  let serviceVehicle = '';

  if (sellContext) {
    trade = { ...own, ...explicitTrade };
    consumeOwn(reader, own);
  } else if (serviceContext) {
    serviceVehicle = describeOwn(own);
    consumeOwn(reader, own);
  } else {
    const registration: Partial<OwnVehicle> = {
      rego: own.rego,
      regoState: own.regoState,
      km: own.km,
      miles: own.miles,
      condition: own.condition,
    };
    if (ownedSignals) consumeOwn(reader, own, ['rego', 'regoState', 'km', 'miles', 'condition']);
    if (!car) {
      const stock = reader.peek('stock_number', 'stocknum');
      if (own.make || own.model || stock || own.vin) {
        const status =
          statusOf(reader.peek('car_type')) ??
          statusOf(reader.peek('vehicle_status')) ??
          statusOf(category) ??
          (site.template === 'used-cars' || site.template === 'toyota-pre-owned' ? 'used' : 'new');
        interestVehicle = emptyVehicle(interest, status);
        Object.assign(interestVehicle, {
          make: own.make,
          model: own.model,
          year: own.year,
          trim: own.trim,
          vin: own.vin,
          stock,
          colour: own.colour,
        });
        consumeOwn(reader, own, ['make', 'model', 'year', 'trim', 'vin', 'colour']);
      }
      if (ownedSignals) trade = { ...registration, ...explicitTrade };
    } else {
      const namesCar = (own.make === '' || same(own.make, car.make)) && (own.model === '' || same(own.model, car.model));
      if (namesCar) consumeOwn(reader, own, ['make', 'model']);
      if (ownedSignals) {
        const described: Partial<OwnVehicle> = namesCar
          ? {}
          : { make: own.make, model: own.model, year: own.year, trim: own.trim, colour: own.colour };
        if (!namesCar) consumeOwn(reader, own, ['make', 'model', 'year', 'trim', 'colour']);
        trade = { ...registration, ...described, ...explicitTrade };
      }
    }
  }

  const tradeVehicle = tradeInVehicle(trade);
  const vehicles = [interestVehicle, tradeVehicle].filter((vehicle): vehicle is VehicleDesc => vehicle !== null);
  if (vehicles.length === 0) {
    // ADF requires a vehicle; a lead about none (a general enquiry) has an empty one.
    const status = statusOf(category) ?? (site.template === 'used-cars' || site.template === 'toyota-pre-owned' ? 'used' : 'new');
    vehicles.push(emptyVehicle(serviceContext ? 'buy' : interest, status));
  }

  const names = customerNames(reader);
  const email = reader.take('email', 'email_address');
  const phone = reader.take('phone', 'mobile', 'phone_number');
  const street = reader.take('address', 'street', 'street_address');
  const city = reader.take('suburb', 'city');
  const state = reader.take('state');
  const postcode = reader.take('postcode', 'postal_code', 'zip', 'zipcode');
  const address =
    street || city || state || postcode
      ? el('address', { type: 'home' }, [
          el('street', { line: '1' }, street),
          city ? el('city', {}, city) : null,
          state ? el('regioncode', {}, state) : null,
          postcode ? el('postalcode', {}, postcode) : null,
          el('country', {}, countries[site.locale]),
        ])
      : null;

  const vendor = vendorElement(site, reader, car);
  const comments = customerComments(reader, {
    category,
    subcategory,
    dateTime,
    testDrive,
    serviceVehicle,
    files: filesLines(lead, options.filesNote),
  });

  const prospect = el('prospect', { status: 'new' }, [
    el('id', { sequence: '1', source: ADF_PROVIDER_NAME }, lead.id),
    el('requestdate', {}, adfRequestDate(lead.createdAt)),
    ...vehicles.map(vehicleElement),
    el('customer', {}, [
      el('contact', { primarycontact: '1' }, [
        ...names,
        email || !phone ? el('email', {}, email) : null,
        phone ? el('phone', { type: 'voice' }, phone) : null,
        address,
      ]),
      comments ? el('comments', {}, comments) : null,
    ]),
    vendor,
    el('provider', {}, [el('name', { part: 'full' }, ADF_PROVIDER_NAME), el('service', {}, ADF_PROVIDER_SERVICE), el('url', {}, site.url)]),
  ]);
  return `<?xml version="1.0"?>\n<?ADF VERSION="1.0"?>\n${serializeXml(el('adf', {}, [prospect]))}\n`;
}

/** One line per file with its link, under a heading; empty for a lead without files. */
function filesLines(lead: Pick<DeliverableLead, 'files'>, note: string | undefined): string[] {
  if (lead.files.length === 0) return [];
  const names = deliveredFileNames(lead.files);
  return [
    `Files (${lead.files.length}):`,
    ...lead.files.map(
      (file, index) =>
        `- ${names[index]} (${file.contentType}, ${formatBytes(file.size)}): ${file.url ?? 'see the lead in the dealer admin'}`,
    ),
    ...(note ? [note] : []),
  ];
}

function customerComments(
  reader: PayloadReader,
  found: { category: string; subcategory: string; dateTime: string; testDrive: boolean; serviceVehicle: string; files: string[] },
): string {
  const message = reader.take('message', 'comments', 'Comments');
  const lines: string[] = [];
  if (found.category || found.subcategory) lines.push(`Enquiry: ${[found.category, found.subcategory].filter(Boolean).join(' / ')}`);
  if (found.dateTime) lines.push(`${found.testDrive ? 'Test drive' : 'Requested'} date/time: ${found.dateTime}`);
  if (found.serviceVehicle) lines.push(`Vehicle: ${found.serviceVehicle}`);
  const optInKey = reader.key('opt_in');
  if (optInKey !== undefined) {
    reader.used.add(optInKey);
    const value = reader.payload[optInKey];
    const yes = value === true || (typeof value === 'string' && /^(true|yes|on|1)$/i.test(value.trim()));
    lines.push(`Marketing opt-in: ${yes ? 'Yes' : 'No'}`);
  }
  const services = reader.take('additional_services');
  if (services) lines.push(`Additional services: ${services}`);
  const heard = reader.take('where-did-you-hear-about-us', 'how_did_you_hear');
  if (heard) lines.push(`Heard about us: ${heard}`);
  // The payload's own list of files (names and sizes) says less than the list with links.
  if (found.files.length > 0) reader.consume('files');
  for (const [key, value] of reader.entries()) {
    const norm = normKey(key);
    if (reader.used.has(key) || internalKeys.has(norm) || key.startsWith('_') || sensitiveKey.test(norm)) continue;
    const text = payloadText(value);
    if (text) lines.push(`${key}: ${text}`);
  }
  if (found.files.length > 0) lines.push(...found.files);
  else if (reader.payload.has_files === true || reader.payload.has_files === 'true')
    lines.push('Files attached: Yes (see the lead in the dealer admin)');
  const page = reader.peek('url');
  if (page) lines.push(`Page: ${page}`);
  const campaign = reader.payload.linked_query_params;
  if (isRecord(campaign)) {
    const pairs = Object.entries(campaign)
      .map(([key, value]) => [key, payloadText(value)] as const)
      .filter(([, text]) => text)
      .map(([key, text]) => `${key}=${text}`);
    if (pairs.length > 0) lines.push(`Campaign: ${pairs.join(', ')}`);
  }
  return [message, lines.join('\n')].filter(Boolean).join('\n\n');
}
