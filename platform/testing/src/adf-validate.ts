/**
 * A structural check of ADF 1.0 documents, for tests (and for a dealer's support question "is
 * this ADF valid?"). It parses with jsdom (a development dependency of the workspace root, loaded
 * on first use only, so production code must not call this) and checks each element's children
 * against the ADF 1.0 content model, the enumerated attribute values, and the values a CRM needs
 * (an ISO 8601 request date, a customer name with an email or phone, a vendor name).
 */
import { createRequire } from 'node:module';

type JsdomModule = { JSDOM: new (html: string, options: { contentType: string }) => { window: { document: Document } } };
let jsdom: JsdomModule | null = null;

function parseXml(xml: string): Document {
  // jsdom ships no type declarations; only its constructor is needed.
  jsdom ??= createRequire(import.meta.url)('jsdom') as JsdomModule;
  return new jsdom.JSDOM(xml, { contentType: 'text/xml' }).window.document;
}

/** Children (as "a b c " strings) each element may have, in ADF 1.0 order. Leaves are text only. */
const contentModels: Record<string, RegExp> = {
  adf: /^(prospect )+$/,
  prospect: /^(id )*requestdate (vehicle )+customer vendor (provider )?$/,
  vehicle:
    /^(id )*year make model (vin )?(stock )?(trim )?(doors )?(bodystyle )?(transmission )?(odometer )?(condition )?(colorcombination )*(imagetag )?(price )?(pricecomments )?(option )*(finance )?(comments )?$/,
  colorcombination: /^(interiorcolor )?(exteriorcolor )?(preference )?$/,
  option: /^optionname (manufacturercode )?(stock )?(weighting )?(price )?$/,
  finance: /^method (amount )+(balance )?$/,
  customer: /^contact (id )*(timeframe )?(comments )?$/,
  timeframe: /^description (earliestdate )?(latestdate )?$/,
  contact: /^(name )+(email )?(phone )*(address )?$/,
  address: /^(street ){1,5}(apartment )?(city )?(regioncode )?(postalcode )?(country )?$/,
  vendor: /^(id )*vendorname (url )?contact $/,
  provider: /^(id )*name (service )?(url )?(email )?(phone )?(contact )?$/,
};
const leaves = new Set([
  'id',
  'requestdate',
  'year',
  'make',
  'model',
  'vin',
  'stock',
  'trim',
  'doors',
  'bodystyle',
  'transmission',
  'odometer',
  'condition',
  'interiorcolor',
  'exteriorcolor',
  'preference',
  'imagetag',
  'price',
  'pricecomments',
  'optionname',
  'manufacturercode',
  'weighting',
  'method',
  'amount',
  'balance',
  'comments',
  'description',
  'earliestdate',
  'latestdate',
  'name',
  'email',
  'phone',
  'street',
  'apartment',
  'city',
  'regioncode',
  'postalcode',
  'country',
  'vendorname',
  'service',
  'url',
]);

/** Enumerated attribute values of ADF 1.0, by element and attribute. */
const attributeValues: Record<string, Record<string, readonly string[]>> = {
  prospect: { status: ['new', 'resend'] },
  vehicle: { interest: ['buy', 'lease', 'sell', 'trade-in', 'test-drive'], status: ['new', 'used'] },
  odometer: { status: ['unknown', 'rolledover', 'replaced', 'original'], units: ['km', 'mi'] },
  price: {
    type: ['quote', 'offer', 'msrp', 'invoice', 'call', 'appraisal', 'asking'],
    delta: ['absolute', 'relative', 'percentage'],
    relativeto: ['msrp', 'invoice'],
  },
  name: { part: ['surname', 'first', 'middle', 'last', 'suffix', 'full'], type: ['individual', 'business'] },
  phone: {
    type: ['voice', 'fax', 'cellphone', 'pager'],
    time: ['morning', 'afternoon', 'evening', 'nopreference', 'day'],
    preferredcontact: ['0', '1'],
  },
  email: { preferredcontact: ['0', '1'] },
  contact: { primarycontact: ['0', '1'] },
  address: { type: ['work', 'home', 'delivery'] },
  amount: { type: ['downpayment', 'monthly', 'total'], limit: ['maximum', 'minimum', 'exact'] },
  balance: { type: ['finance', 'residual'] },
};

const iso8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
const text = (element: Element | null | undefined) => element?.textContent?.trim() ?? '';
const childrenNamed = (element: Element, name: string) => Array.from(element.children).filter((child) => child.localName === name);

function pathOf(element: Element): string {
  const parts: string[] = [];
  for (let node: Element | null = element; node; node = node.parentElement) {
    const parent = node.parentElement;
    const index = parent ? childrenNamed(parent, node.localName).indexOf(node) : 0;
    parts.unshift(parent && childrenNamed(parent, node.localName).length > 1 ? `${node.localName}[${index + 1}]` : node.localName);
  }
  return parts.join('/');
}

/** Problems with an already parsed document; empty when it is a well-formed ADF 1.0 lead. */
export function validateAdfDocument(doc: Document): string[] {
  const problems: string[] = [];
  const root = doc.documentElement;
  if (!root || root.localName !== 'adf') return [`root element is <${root?.localName ?? 'none'}>, not <adf>`];
  const adfInstruction = Array.from(doc.childNodes).find(
    (node): node is ProcessingInstruction => node.nodeType === 7 && (node as ProcessingInstruction).target.toUpperCase() === 'ADF',
  );
  if (!adfInstruction) problems.push('missing <?ADF VERSION="1.0"?> processing instruction');
  else if (!/VERSION\s*=\s*"1\.0"/i.test(adfInstruction.data))
    problems.push(`ADF processing instruction is not version 1.0: ${adfInstruction.data}`);

  for (const element of [root, ...Array.from(root.getElementsByTagName('*'))]) {
    const name = element.localName;
    const where = pathOf(element);
    const model = contentModels[name];
    if (model) {
      const sequence = Array.from(element.children)
        .map((child) => `${child.localName} `)
        .join('');
      if (!model.test(sequence)) problems.push(`${where}: children [${sequence.trim()}] do not match ADF 1.0 ${model.source}`);
    } else if (leaves.has(name)) {
      if (element.children.length > 0) problems.push(`${where}: must contain text only`);
    } else {
      problems.push(`${where}: <${name}> is not an ADF 1.0 element`);
    }
    for (const [attribute, allowed] of Object.entries(attributeValues[name] ?? {})) {
      const value = element.getAttribute(attribute);
      if (value !== null && !allowed.includes(value)) problems.push(`${where}: ${attribute}="${value}" is not one of ${allowed.join('|')}`);
    }
  }

  for (const prospect of childrenNamed(root, 'prospect')) {
    const where = pathOf(prospect);
    const requestdate = text(childrenNamed(prospect, 'requestdate')[0]);
    if (!iso8601.test(requestdate) || Number.isNaN(Date.parse(requestdate)))
      problems.push(`${where}/requestdate: "${requestdate}" is not an ISO 8601 date-time`);
    for (const vehicle of childrenNamed(prospect, 'vehicle')) {
      const year = text(childrenNamed(vehicle, 'year')[0]);
      if (year && !/^\d{4}$/.test(year)) problems.push(`${pathOf(vehicle)}/year: "${year}" is not a 4-digit year`);
      for (const numeric of ['price', 'odometer']) {
        const value = text(childrenNamed(vehicle, numeric)[0]);
        if (value && !/^\d+(\.\d+)?$/.test(value)) problems.push(`${pathOf(vehicle)}/${numeric}: "${value}" is not a number`);
      }
      const price = childrenNamed(vehicle, 'price')[0];
      const currency = price?.getAttribute('currency');
      if (currency !== null && currency !== undefined && !/^[A-Z]{3}$/.test(currency))
        problems.push(`${pathOf(vehicle)}/price: currency "${currency}" is not ISO 4217`);
    }
    const contact = prospect.querySelector(':scope > customer > contact');
    if (contact) {
      if (!childrenNamed(contact, 'name').some((name) => text(name))) problems.push(`${where}/customer/contact: no name`);
      if (!childrenNamed(contact, 'email').some((email) => text(email)) && !childrenNamed(contact, 'phone').some((phone) => text(phone))) {
        problems.push(`${where}/customer/contact: neither email nor phone`);
      }
    }
    const vendorname = prospect.querySelector(':scope > vendor > vendorname');
    if (vendorname && !text(vendorname)) problems.push(`${where}/vendor/vendorname: empty`);
  }
  return problems;
}

/** Parses the XML (a parse error is a problem too) and checks it as above. */
export function validateAdfStructure(xml: string): string[] {
  if (!xml.startsWith('<?xml')) return ['document does not start with the XML declaration'];
  let doc: Document;
  try {
    doc = parseXml(xml);
  } catch (error) {
    return [`not well-formed XML: ${error instanceof Error ? error.message : String(error)}`];
  }
  const parserError = doc.getElementsByTagName('parsererror')[0];
  if (parserError) return [`not well-formed XML: ${text(parserError)}`];
  return validateAdfDocument(doc);
}
