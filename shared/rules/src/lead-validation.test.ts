import { describe, expect, it } from 'vitest';
import { formMessages } from '@dealer/contracts/lead-values';
import {
  enquiryFormRules,
  formFieldTypes,
  initialValues,
  isEmptyValue,
  isFieldRequired,
  isFieldShown,
  optionLabel,
  postcodeMaxLength,
  postcodeMessages,
  stripServiceSuffix,
  validateFields,
  type EnquiryFormOptions,
  type EnquiryFormSite,
  type FieldRule,
  type FormFieldType,
  type FormValues,
  type ValidationContext,
} from './lead-validation';

const REQUIRED = '*This is a required field.';
const EMAIL = 'invalid email address';
const ALPHA = 'Please use alphabetical characters only.';
const POSTCODE = 'Invalid postcode. Please enter a 4-digit number.';
const ZIP = 'Invalid ZIP code. Please enter a 5-digit number.';

const au: ValidationContext = { phoneRule: 'au-any', locale: 'en-AU' };
const auMobile: ValidationContext = { phoneRule: 'au-mobile', locale: 'en-AU' };
const nz: ValidationContext = { phoneRule: 'nz', locale: 'en-NZ' };
const us: ValidationContext = { phoneRule: 'us', locale: 'en-US' };

const one = (rule: FieldRule, value: unknown, ctx: ValidationContext = au, others: FormValues = {}) =>
  validateFields([rule], { ...others, [rule.name]: value }, ctx)[rule.name] ?? null;

describe('SPEC §5 messages word for word', () => {
  it.each([
    [formMessages.required, REQUIRED],
    [formMessages.invalidEmail, EMAIL],
    [formMessages.alphabetical, ALPHA],
    [postcodeMessages.invalid, POSTCODE],
  ])('%s', (actual, expected) => {
    expect(actual).toBe(expected);
  });
});

describe('SPEC §3 form field types', () => {
  it('lists all 41 types in order', () => {
    expect(formFieldTypes).toHaveLength(41);
    expect(formFieldTypes[0]).toBe('address');
    expect(formFieldTypes.at(-1)).toBe('cricksInstalled');
  });
});

describe('every field is required by default', () => {
  const requiredTypes = formFieldTypes.filter((type) => type !== 'hidden' && type !== 'button' && type !== 'fullName');
  it.each(requiredTypes.map((type) => [type]))('%s left empty → required', (type) => {
    expect(one({ name: 'f', type }, undefined)).toBe(REQUIRED);
    expect(one({ name: 'f', type }, '   ')).toBe(REQUIRED);
  });

  it.each<[FormFieldType]>([['hidden'], ['button']])('%s is never required: nothing to fill in', (type) => {
    expect(one({ name: 'f', type }, undefined)).toBeNull();
  });

  it.each<[FormFieldType, unknown, string | null]>([
    ['string', 'Hello', null],
    ['string', '', REQUIRED],
    ['string', null, REQUIRED],
    ['number', 0, null],
    ['number', Number.NaN, REQUIRED],
    ['kilometre', 45000, null],
    ['check', true, null],
    ['check', false, REQUIRED], // an unticked required box
    ['checkCard', false, REQUIRED],
    ['radio', false, null], // a Yes/No radio answered No is answered
    ['radioGroup', 'Yes', null],
    ['checkGroup', [], REQUIRED],
    ['checkGroup', ['Tyres'], null],
    ['file', [], REQUIRED],
    ['file', [{ name: 'front.jpg', size: 1024 }], null],
    ['address', { street: '', city: '' }, REQUIRED],
    ['address', { street: '1 George St', city: 'Sydney' }, null],
    ['dateTime', '2025-03-14T10:30', null],
    ['starRating', 4, null],
    ['custom', { any: 'thing' }, null],
  ])('%s %j → %j', (type, value, expected) => {
    expect(one({ name: 'f', type }, value)).toBe(expected);
  });
});

describe('optional and custom required', () => {
  const wantsCallback = (values: FormValues) => values.contact_method === 'Phone';
  it.each<[string, FieldRule, FormValues, boolean]>([
    ['default', { name: 'f', type: 'string' }, {}, true],
    ['optional', { name: 'f', type: 'string', optional: true }, {}, false],
    ['custom true overrides optional', { name: 'f', type: 'string', optional: true, required: () => true }, {}, true],
    ['custom false overrides default', { name: 'f', type: 'string', required: () => false }, {}, false],
    ['custom on values: yes', { name: 'f', type: 'phone', required: wantsCallback }, { contact_method: 'Phone' }, true],
    ['custom on values: no', { name: 'f', type: 'phone', required: wantsCallback }, { contact_method: 'Email' }, false],
  ])('%s', (_name, rule, values, expected) => {
    expect(isFieldRequired(rule, values)).toBe(expected);
    expect(validateFields([rule], values, au).f ?? null).toBe(expected ? REQUIRED : null);
  });

  it('an optional field, when filled in, must still be well formed', () => {
    expect(one({ name: 'e', type: 'email', optional: true }, '')).toBeNull();
    expect(one({ name: 'e', type: 'email', optional: true }, 'sam@')).toBe(EMAIL);
  });
});

describe('conditional fields are skipped when hidden', () => {
  const tradeIn: FieldRule = { name: 'rego', type: 'rego', showIf: { field: 'has_trade_in', equals: true } };
  const finance: FieldRule = { name: 'deposit', type: 'currency', showIf: { field: 'payment', in: ['Finance', 'Lease'] } };
  const fn: FieldRule = { name: 'business', type: 'string', showIf: (values) => values.buyer_type === 'Business' };
  it.each<[FieldRule, FormValues, boolean]>([
    [tradeIn, { has_trade_in: true }, true],
    [tradeIn, { has_trade_in: false }, false],
    [tradeIn, {}, false],
    [finance, { payment: 'Finance' }, true],
    [finance, { payment: 'Lease' }, true],
    [finance, { payment: 'Cash' }, false],
    [fn, { buyer_type: 'Business' }, true],
    [fn, { buyer_type: 'Private' }, false],
  ])('%j with %j shown: %s', (rule, values, shown) => {
    expect(isFieldShown(rule, values)).toBe(shown);
    expect(validateFields([rule], values, au)[rule.name] ?? null).toBe(shown ? REQUIRED : null);
  });
});

describe('selects with no options render nothing, so are not required', () => {
  it.each<[FormFieldType, FieldRule['options'], boolean]>([
    ['select', [], false],
    ['select', [{ value: 'a', label: 'A' }], true],
    ['select', undefined, true], // options loaded elsewhere
    ['locationSelect', [], false],
    ['locationSelectCustom', [], false],
    ['websiteLocationSelect', [], false],
    ['locationSelect', [{ value: 12, name: 'Parramatta' }], true],
    ['radio', [], true], // only selects disappear
  ])('%s with %j shown: %s', (type, options, shown) => {
    const rule: FieldRule = { name: 'f', type, ...(options ? { options } : {}) };
    expect(isFieldShown(rule, {})).toBe(shown);
    expect(one(rule, undefined)).toBe(shown ? REQUIRED : null);
  });
});

describe('email: standard address pattern', () => {
  it.each<[string, string | null]>([
    ['sam.citizen@example.com.au', null],
    ['jo+cars@example.co.nz', null],
    ['  SAM@EXAMPLE.COM  ', null],
    ['first_last-1@sub.example.online', null],
    ['sam@example', EMAIL],
    ['sam example.com', EMAIL],
    ['sam@@example.com', EMAIL],
    ['@example.com', EMAIL],
    ['sam@example.c', EMAIL],
    ['sam@exam ple.com', EMAIL],
    ['', REQUIRED],
  ])('%j → %j', (value, expected) => {
    expect(one({ name: 'email', type: 'email' }, value)).toBe(expected);
  });
});

describe('names: letters and spaces only; middle name optional', () => {
  const fullName: FieldRule = { name: 'name', type: 'fullName', middleName: true };
  it.each<[FormValues, Record<string, string>]>([
    [{ name: 'Sam', last_name: 'Citizen' }, {}],
    [{ name: 'Mary Jane', middle_name: 'Anne', last_name: 'Van Der Berg' }, {}],
    [{ name: 'Zoë', last_name: 'Müller' }, {}],
    [{ name: 'Aroha', last_name: 'Tūhoe' }, {}],
    [
      { name: '', last_name: '' },
      { name: REQUIRED, last_name: REQUIRED },
    ],
    [{ name: 'Sam' }, { last_name: REQUIRED }],
    [{ last_name: 'Citizen' }, { name: REQUIRED }],
    [{ name: 'Sam3', last_name: 'Citizen' }, { name: ALPHA }],
    [{ name: 'Sam', middle_name: 'J.', last_name: 'Citizen' }, { middle_name: ALPHA }],
    [{ name: 'Sam', last_name: "O'Brien" }, { last_name: ALPHA }],
    [{ name: 'Mary-Jane', last_name: 'Citizen' }, { name: ALPHA }],
    [{ name: 'Sam', middle_name: '', last_name: 'Citizen' }, {}],
  ])('%j → %j', (values, expected) => {
    expect(validateFields([fullName], values, au)).toEqual(expected);
  });

  it('an optional full name may be left empty but not filled with digits', () => {
    const optional: FieldRule = { ...fullName, optional: true };
    expect(validateFields([optional], {}, au)).toEqual({});
    expect(validateFields([optional], { name: 'R2D2' }, au)).toEqual({ name: ALPHA });
  });

  it.each<[FieldRule, unknown, string | null]>([
    [{ name: 'first_name', type: 'string' }, 'Sam', null],
    [{ name: 'first_name', type: 'string' }, 'Sam1', ALPHA],
    [{ name: 'first_name', type: 'string' }, '', REQUIRED],
    [{ name: 'last_name', type: 'string' }, 'Citizen!', ALPHA],
    [{ name: 'middle_name', type: 'string' }, '', null],
    [{ name: 'middle_name', type: 'string' }, 'J', null],
    [{ name: 'middle_name', type: 'string' }, 'J2', ALPHA],
    [{ name: 'middle_name', type: 'string', required: () => true }, '', REQUIRED],
  ])('stand-alone %j %j → %j', (rule, value, expected) => {
    expect(one(rule, value)).toBe(expected);
  });
});

describe('postcode: exactly 4 digits (US sites: 5-digit ZIP)', () => {
  it.each<[ValidationContext, unknown, string | null]>([
    [au, '2000', null],
    [au, '0800', null],
    [au, ' 3000 ', null],
    [au, 2150, null],
    [au, '200', POSTCODE],
    [au, '20000', POSTCODE],
    [au, '2OOO', POSTCODE],
    [au, 'NSW 2000', POSTCODE],
    [au, '', REQUIRED],
    [nz, '6011', null],
    [nz, '601', POSTCODE],
    [us, '90210', null],
    [us, '10001', null],
    [us, '2000', ZIP],
    [us, '90210-1234', ZIP],
    [us, '', REQUIRED],
  ])('%j %j → %j', (ctx, value, expected) => {
    expect(one({ name: 'postcode', type: 'postcode' }, value, ctx)).toBe(expected);
  });

  it.each([
    ['en-AU', 4],
    ['en-NZ', 4],
    ['en-US', 5],
    [undefined, 4],
  ] as const)('max length for %s is %d', (locale, max) => {
    expect(postcodeMaxLength(locale)).toBe(max);
  });
});

describe('phone fields use the site rule', () => {
  it.each<[ValidationContext, string, string | null]>([
    [au, '(02) 9876 5432', null],
    [au, '0412 345 678', null],
    [auMobile, '(02) 9876 5432', 'Invalid phone number. Must be an Australian mobile number.'],
    [auMobile, '0412 345 678', null],
    [nz, '021 123 4567', null],
    [nz, '+64 21 123 4567', 'Invalid phone number. Too many characters.'],
    [us, '(212) 555-0123', null],
    [us, '0212345', 'Invalid phone number. Must be a US number.'],
    [au, '+1 212 555 0123', 'Invalid phone number. Must be an Australian number.'],
    [nz, '0800 123 456', 'Invalid phone number. Must be a New Zealand number.'],
    [us, '0400 000 000', null],
    [au, '', REQUIRED],
  ])('%j %j → %j', (ctx, value, expected) => {
    expect(one({ name: 'phone', type: 'phone' }, value, ctx)).toBe(expected);
  });
});

describe('custom validate hook runs after the built-in checks', () => {
  const km: FieldRule = { name: 'km', type: 'kilometre', validate: (v) => (Number(v) > 1_000_000 ? 'Too many kilometres.' : null) };
  it.each<[unknown, string | null]>([
    [undefined, REQUIRED],
    [120000, null],
    [2_000_000, 'Too many kilometres.'],
  ])('%j → %j', (value, expected) => {
    expect(one(km, value)).toBe(expected);
  });
});

describe('isEmptyValue', () => {
  it.each<[unknown, FormFieldType | undefined, boolean]>([
    [undefined, undefined, true],
    [null, undefined, true],
    ['', undefined, true],
    [' \n', undefined, true],
    ['x', undefined, false],
    [0, undefined, false],
    [false, undefined, false],
    [false, 'optIn', true],
    [true, 'optIn', false],
    [[], undefined, true],
    [{ length: 0 }, undefined, true],
    [{}, undefined, true],
    [new Date(0), undefined, false],
  ])('%j (%s) → %s', (value, type, expected) => {
    expect(isEmptyValue(value, type)).toBe(expected);
  });
});

describe('stripServiceSuffix', () => {
  it.each([
    ['Servco Toyota - Service', 'Servco Toyota'],
    ['Servco Toyota - Service ', 'Servco Toyota'],
    ['Servco Toyota', 'Servco Toyota'],
    ['Servco - Service Centre', 'Servco - Service Centre'],
    ['Parts - Service - Service', 'Parts - Service'],
    ['Service', 'Service'],
  ])('%j → %j', (label, expected) => {
    expect(stripServiceSuffix(label)).toBe(expected);
  });

  it.each([
    [{ value: 12, name: 'Parramatta - Service' }, true, 'Parramatta'],
    [{ value: 12, name: 'Parramatta - Service' }, false, 'Parramatta - Service'],
    [{ value: 'a', label: 'Label - Service', name: 'Name' }, true, 'Label'],
    [{ value: 7 }, true, '7'],
  ] as const)('optionLabel(%j, strip %s) → %j', (option, stripService, expected) => {
    expect(optionLabel(option, { stripService })).toBe(expected);
  });
});

describe('enquiry form (SPEC §5)', () => {
  const site = (overrides: Partial<EnquiryFormSite> = {}): EnquiryFormSite => ({
    locale: 'en-AU',
    features: { show_postcode: false },
    ...overrides,
  });
  const names = (opts?: EnquiryFormOptions, s = site()) => enquiryFormRules(s, opts).map((rule) => `${rule.name}:${rule.type}`);
  const filled = {
    category: 'General Enquiry',
    name: 'Sam',
    last_name: 'Citizen',
    phone: '0412 345 678',
    email: 'sam@example.com.au',
    message: 'Is the Hilux still available?',
    opt_in: true,
  };

  it('has category (hidden, General Enquiry), full name, phone, email, message and opt_in by default', () => {
    expect(names()).toEqual(['category:hidden', 'name:fullName', 'phone:phone', 'email:email', 'message:textarea', 'opt_in:optIn']);
    expect(initialValues(enquiryFormRules(site()))).toEqual({ category: 'General Enquiry', opt_in: true });
  });

  it('an empty form reports name, last name, phone, email and message as required', () => {
    expect(validateFields(enquiryFormRules(site()), initialValues(enquiryFormRules(site())), au)).toEqual({
      name: REQUIRED,
      last_name: REQUIRED,
      phone: REQUIRED,
      email: REQUIRED,
      message: REQUIRED,
    });
  });

  it('a complete form is valid', () => {
    expect(validateFields(enquiryFormRules(site()), filled, au)).toEqual({});
  });

  it.each<[string, EnquiryFormOptions, EnquiryFormSite, FormValues, Record<string, string>]>([
    ['postcode shown on show_postcode sites', {}, site({ features: { show_postcode: true } }), filled, { postcode: REQUIRED }],
    ['postcode checked', {}, site({ features: { show_postcode: true } }), { ...filled, postcode: '20' }, { postcode: POSTCODE }],
    ['message optional when the dealer opts out', { messageOptional: true }, site(), { ...filled, message: '' }, {}],
    ['message required otherwise', {}, site(), { ...filled, message: ' ' }, { message: REQUIRED }],
    [
      'category select required when shown',
      { categories: ['General Enquiry', 'Service Enquiry'] },
      site(),
      { ...filled, category: '' },
      { category: REQUIRED },
    ],
    ['category select with no options renders nothing', { categories: [] }, site(), { ...filled, category: '' }, {}],
    ['location select required when shown', { locations: [{ value: 3, name: 'Parramatta' }] }, site(), filled, { location: REQUIRED }],
    ['location select answered', { locations: [{ value: 3, name: 'Parramatta' }] }, site(), { ...filled, location: 3 }, {}],
    ['location select with no options renders nothing', { locations: [] }, site(), filled, {}],
    [
      'preferred dealership required when shown',
      { dealerships: [{ value: 'servco-toyota', label: 'Servco Toyota' }] },
      site(),
      filled,
      { dealership_slug: REQUIRED },
    ],
    ['Rego optional', { rego: true }, site(), filled, {}],
    ['test drive date/time optional', { testDrive: true }, site(), filled, {}],
    ['opt_in optional', {}, site(), { ...filled, opt_in: false }, {}],
  ])('%s', (_name, opts, s, values, expected) => {
    expect(validateFields(enquiryFormRules(s, opts), values, au)).toEqual(expected);
  });

  it('category select defaults to General Enquiry', () => {
    const rules = enquiryFormRules(site(), { categories: ['General Enquiry', 'Finance Enquiry'] });
    expect(rules.find((r) => r.name === 'category')).toMatchObject({ type: 'select', defaultValue: 'General Enquiry' });
  });

  it.each([
    [undefined, true],
    [{}, true],
    [{ opt_in_default: true }, true],
    [{ opt_in_default: false }, false],
  ])('lead_settings %j: opt_in starts %s', (settings, expected) => {
    expect(initialValues(enquiryFormRules(site({ lead_settings: settings })))).toMatchObject({ opt_in: expected });
  });

  it('the opt-in label is the consent wording when the site has one', () => {
    const wording = 'I agree to receive marketing from Servco Toyota. I can unsubscribe at any time.';
    const rules = enquiryFormRules(site({ lead_settings: { consent_wording: wording } }));
    expect(rules.find((r) => r.name === 'opt_in')?.label).toBe(wording);
  });

  it('US sites label the postcode as a ZIP code and check 5 digits', () => {
    const rules = enquiryFormRules(site({ locale: 'en-US', features: { show_postcode: true } }));
    expect(rules.find((r) => r.name === 'postcode')?.label).toBe('ZIP Code');
    expect(validateFields(rules, { ...filled, phone: '(212) 555-0123', postcode: '2000' }, us)).toEqual({ postcode: ZIP });
  });

  it('a mobile-only site refuses a landline in the enquiry form', () => {
    expect(validateFields(enquiryFormRules(site()), { ...filled, phone: '(02) 9876 5432' }, auMobile)).toEqual({
      phone: 'Invalid phone number. Must be an Australian mobile number.',
    });
  });
});
