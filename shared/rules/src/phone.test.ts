import { describe, expect, it } from 'vitest';
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import {
  formatPhoneForDisplay,
  isTestPhoneNumber,
  normalisePhone,
  phoneMessages,
  phoneRuleFor,
  phoneRuleRegion,
  testPhoneNumber,
  toE164,
  validatePhone,
  type PhoneRule,
  type PhoneRuleSite,
} from './phone';

const AU = 'Invalid phone number. Must be an Australian number.';
const AU_MOBILE = 'Invalid phone number. Must be an Australian mobile number.';
const NZ = 'Invalid phone number. Must be a New Zealand number.';
const US = 'Invalid phone number. Must be a US number.';
const TOO_MANY = 'Invalid phone number. Too many characters.';

describe('phone messages are SPEC §5 word for word', () => {
  it.each([
    ['au', AU],
    ['auMobile', AU_MOBILE],
    ['nz', NZ],
    ['us', US],
    ['tooManyCharacters', TOO_MANY],
    ['e164Au', 'Invalid Australian mobile number format (E.164 required). For example, 0411 222 333 is valid.'],
    ['e164Us', 'Invalid US phone number format (E.164 required). For example, (123) 456-7890 is valid.'],
  ] as const)('%s', (key, message) => {
    expect(phoneMessages[key]).toBe(message);
  });
});

describe('normalisePhone: country prefixes 61, 64 and +1 to national form', () => {
  it.each<[string, PhoneRule, string]>([
    ['0412 345 678', 'au-any', '0412345678'],
    ['(02) 9876-5432', 'au-any', '0298765432'],
    ['+61 412 345 678', 'au-any', '0412345678'],
    ['61 412 345 678', 'au-any', '0412345678'],
    ['0061 3 9123 4567', 'au-any', '0391234567'],
    ['0011 61 412 345 678', 'au-mobile', '0412345678'],
    ['+61 (0)2 9876 5432', 'au-any', '0298765432'],
    ['+64 21 123 4567', 'nz', '0211234567'],
    ['64 9 309 1234', 'nz', '093091234'],
    ['0064 27 412 3456', 'nz', '0274123456'],
    ['+64 21 123 4567', 'au-nz', '0211234567'],
    ['+61 412 345 678', 'au-nz', '0412345678'],
    ['+1 (212) 555-0123', 'us', '2125550123'],
    // foreign prefixes stay, so they cannot pass as national numbers
    ['+64 21 123 4567', 'au-any', '+64211234567'],
    ['+61 412 345 678', 'us', '+61412345678'],
    ['+61 412 345 678', 'nz', '+61412345678'],
    // on US sites 614 and 646 are area codes, not country codes
    ['614-555-0142', 'us', '6145550142'],
    ['646 555 0199', 'us', '6465550199'],
  ])('%s (%s) → %s', (input, rule, expected) => {
    expect(normalisePhone(input, rule)).toBe(expected);
  });
});

describe('validatePhone: Australia, any number (02/03/04/05/07/08 + 8 digits, or 0061)', () => {
  it.each<[string, string | null]>([
    ['0412 345 678', null],
    ['(02) 9876 5432', null],
    ['03 9123 4567', null],
    ['07 3123 4567', null],
    ['08 9123 4567', null],
    ['0512345678', null], // SPEC allows 05; libphonenumber calls it unallocated (SPEC wins)
    ['+61 412 345 678', null],
    ['61412345678', null],
    ['0061 3 9123 4567', null],
    ['0061298765432', null],
    ['+61 (0)2 9876 5432', null],
    ['1300 123 456', AU], // 13/1300/1800 numbers are not in SPEC's list
    ['0612345678', AU],
    ['0912345678', AU],
    ['041234567', AU], // 9 digits
    ['04123456789', AU], // 11 digits
    ['+64 21 123 4567', AU], // an NZ mobile is not a Sydney landline
    ['+1 212 555 0123', AU],
    ['+44 7911 123456', AU],
    ['', AU],
    ['not a number', AU],
  ])('%j → %j', (input, expected) => {
    expect(validatePhone(input, 'au-any')).toBe(expected);
  });
});

describe('validatePhone: Australia, mobile-only (04 + 8 digits, or +614 + 8 digits)', () => {
  it.each<[string, string | null]>([
    ['0412 345 678', null],
    ['0499-999-999', null],
    ['+61412345678', null],
    ['+61 412 345 678', null],
    ['0061 412 345 678', null],
    ['(02) 9876 5432', AU_MOBILE],
    ['03 9123 4567', AU_MOBILE],
    ['0512345678', AU_MOBILE],
    ['+614123456789', AU_MOBILE],
    ['041234567', AU_MOBILE],
    ['+64 21 123 4567', AU_MOBILE],
  ])('%j → %j', (input, expected) => {
    expect(validatePhone(input, 'au-mobile')).toBe(expected);
  });
});

describe('validatePhone: New Zealand (0 + 2/3/4/6/7/9 + 7 to 9 digits, or 0064; 15+ characters)', () => {
  it.each<[string, string | null]>([
    ['021 123 4567', null],
    ['0211234567', null],
    ['021 123 45678', null], // 9 digits after 02
    ['027 412 3456', null],
    ['022 123 4567', null],
    ['09 309 1234', null],
    ['03 379 1234', null],
    ['04 384 1234', null],
    ['06 355 1234', null],
    ['07 838 1234', null],
    ['0064211234567', null],
    ['+6421 123 4567', null],
    ['64211234567', null],
    ['0312345678', null], // SPEC allows 8 digits after 03; libphonenumber does not (SPEC wins)
    ['0412345678', null], // an AU mobile has the shape of a Wellington 04 number: SPEC accepts it
    ['0800 123 456', NZ], // freephone: libphonenumber accepts, SPEC does not (SPEC wins)
    ['0512345678', NZ],
    ['01 234 5678', NZ],
    ['021 123', NZ], // too short
    ['02112345678901', NZ], // 14 characters: too long a number, but under the character limit
    ['+61412345678', NZ],
    ['', NZ],
    ['+64 21 123 4567', TOO_MANY], // 15 characters
    ['021123456789012', TOO_MANY],
    ['0211234567890123456', TOO_MANY],
  ])('%j → %j', (input, expected) => {
    expect(validatePhone(input, 'nz')).toBe(expected);
  });

  it('a numeric value from the number field is read as its digits', () => {
    expect(validatePhone(93091234, 'nz')).toBe(NZ); // the leading 0 is gone, as with any number field
    expect(validatePhone(1234567890123456, 'nz')).toBe(TOO_MANY);
  });
});

describe('validatePhone: US (10 digits, or 1 + area digit 2-9 + 9 digits, or 001)', () => {
  it.each<[string, string | null]>([
    ['(212) 555-0123', null],
    ['212-555-0123', null],
    ['415.555.2671', null],
    ['+1 (415) 555-2671', null],
    ['1 212 555 0123', null],
    ['12125550123', null],
    ['001 212 555 0123', null],
    ['614-555-0142', null],
    ['(123) 456-7890', null], // SPEC's own example; libphonenumber refuses area code 123 (SPEC wins)
    ['555-0123', US],
    ['1 123 555 0123', US], // 1 then area digit 1
    ['0012125550123 4', US],
    ['+44 20 7946 0018', US],
    ['+61 412 345 678', US],
    ['212 555 01234', US],
    ['', US],
  ])('%j → %j', (input, expected) => {
    expect(validatePhone(input, 'us')).toBe(expected);
  });
});

describe('validatePhone: Australia and NZ combined (AU, NZ and UK numbers)', () => {
  it.each<[string, string | null]>([
    ['0412 345 678', null],
    ['(02) 9876 5432', null],
    ['+61 412 345 678', null],
    ['021 123 4567', null],
    ['+64 21 123 4567', null], // no 15-character limit outside the NZ rule
    ['09 309 1234', null],
    ['+44 7911 123456', null],
    ['0044 20 7946 0018', null],
    ['+44 (0)20 7946 0018', null],
    ['07911 123456', null],
    ['+44 7700 900123', AU], // Ofcom's drama range: UK-shaped but not a real number
    ['+44 1234', AU],
    ['0800 123 456', null], // not NZ by SPEC, but a valid UK freephone number
    ['+1 212 555 0123', AU],
    ['+33 1 23 45 67 89', AU],
    ['', AU],
  ])('%j → %j', (input, expected) => {
    expect(validatePhone(input, 'au-nz')).toBe(expected);
  });
});

describe('the fixed test number is accepted on every rule', () => {
  it('is an obviously fake Australian mobile', () => {
    expect(testPhoneNumber).toBe('0400000000');
  });

  const rules: PhoneRule[] = ['au-any', 'au-mobile', 'au-nz', 'nz', 'us'];
  it.each(rules.flatMap((rule) => ['0400000000', '0400 000 000', '+61 400 000 000'].map((n) => [rule, n] as const)))(
    '%s accepts %j',
    (rule, input) => {
      expect(validatePhone(input, rule)).toBeNull();
    },
  );

  it.each([
    ['0400000000', true],
    ['0400 000 000', true],
    ['+61400000000', true],
    ['0400000001', false],
    ['', false],
    [null, false],
  ] as const)('isTestPhoneNumber(%j) → %s', (input, expected) => {
    expect(isTestPhoneNumber(input)).toBe(expected);
  });
});

describe('phoneRuleFor', () => {
  const site = (locale: PhoneRuleSite['locale'], mobileOnly: boolean, auNz?: boolean): PhoneRuleSite => ({
    locale,
    features: { mobile_only_phone: mobileOnly, ...(auNz === undefined ? {} : { au_nz_phone: auNz }) },
  });
  it.each<[PhoneRuleSite, PhoneRule]>([
    [site('en-AU', false), 'au-any'],
    [site('en-AU', true), 'au-mobile'],
    [site('en-AU', false, true), 'au-nz'],
    [site('en-AU', true, true), 'au-nz'],
    [site('en-AU', true, false), 'au-mobile'],
    [site('en-NZ', false), 'nz'],
    [site('en-NZ', true), 'nz'],
    [site('en-US', false), 'us'],
    [site('en-US', true), 'us'],
    [{ ...site('en-AU', false), lead_settings: { mobile_only_phone: true } }, 'au-mobile'],
    [{ ...site('en-AU', true), lead_settings: { mobile_only_phone: false } }, 'au-any'],
    [{ ...site('en-AU', true), lead_settings: {} }, 'au-mobile'],
    [{ ...site('en-AU', true), lead_settings: null }, 'au-mobile'],
  ])('%j → %s', (input, expected) => {
    expect(phoneRuleFor(input)).toBe(expected);
  });

  it.each<[PhoneRule, string]>([
    ['au-any', 'AU'],
    ['au-mobile', 'AU'],
    ['au-nz', 'AU'],
    ['nz', 'NZ'],
    ['us', 'US'],
  ])('%s displays as %s', (rule, region) => {
    expect(phoneRuleRegion(rule)).toBe(region);
  });
});

describe('formatPhoneForDisplay: national style at home, international otherwise', () => {
  it.each([
    ['0412345678', 'AU', '0412 345 678'],
    ['+61 411 222 333', 'AU', '0411 222 333'],
    ['+61298765432', 'AU', '(02) 9876 5432'],
    ['0061 3 9123 4567', 'AU', '(03) 9123 4567'],
    ['0211234567', 'NZ', '021 123 4567'],
    ['+64 9 309 1234', 'NZ', '09 309 1234'],
    ['0064 27 412 3456', 'NZ', '0274 123 456'],
    ['2125550123', 'US', '(212) 555-0123'],
    ['+1 212 555 0123', 'US', '(212) 555-0123'],
    ['001 415 555 2671', 'US', '(415) 555-2671'],
    ['+64 21 123 4567', 'AU', '+64 21 123 4567'],
    ['+61 412 345 678', 'NZ', '+61 412 345 678'],
    ['+44 7911 123456', 'AU', '+44 7911 123456'],
    ['+61 412 345 678', 'US', '+61 412 345 678'],
    ['0400000000', 'US', '0400 000 000'],
    ['0400000000', 'AU', '0400 000 000'],
    // not a valid number for libphonenumber: kept as typed
    [' 0512345678 ', 'AU', '0512345678'],
    ['(123) 456-7890', 'US', '(123) 456-7890'],
    ['ask for Sam', 'AU', 'ask for Sam'],
    ['', 'AU', ''],
  ] as const)('%j in %s → %j', (input, region, expected) => {
    expect(formatPhoneForDisplay(input, region)).toBe(expected);
  });
});

describe('toE164 (chat and ad tracking)', () => {
  const auError = { ok: false, message: 'Invalid Australian mobile number format (E.164 required). For example, 0411 222 333 is valid.' };
  const usError = { ok: false, message: 'Invalid US phone number format (E.164 required). For example, (123) 456-7890 is valid.' };
  it.each([
    ['0411 222 333', 'AU', { ok: true, e164: '+61411222333' }],
    ['0412-345-678', 'AU', { ok: true, e164: '+61412345678' }],
    ['+61 411 222 333', 'AU', { ok: true, e164: '+61411222333' }],
    ['+64 21 123 4567', 'AU', { ok: true, e164: '+64211234567' }],
    ['(02) 9876 5432', 'AU', auError], // only 04 numbers are converted; no plus, not E.164
    ['61411222333', 'AU', auError],
    ['+0411222333', 'AU', auError],
    ['+6141122233344556', 'AU', auError], // 16 digits
    ['', 'AU', auError],
    ['(123) 456-7890', 'US', { ok: true, e164: '+11234567890' }],
    ['(212) 555-0123', 'US', { ok: true, e164: '+12125550123' }],
    ['1 (212) 555-0123', 'US', { ok: true, e164: '+12125550123' }],
    ['+1 212 555 0123', 'US', { ok: true, e164: '+12125550123' }],
    ['555-0123', 'US', usError],
    ['212 555 01234', 'US', usError], // 11 digits not starting with 1
    ['0012125550123', 'US', usError],
    ['', 'US', usError],
  ] as const)('%j (%s) → %j', (input, region, expected) => {
    expect(toE164(input, region)).toEqual(expected);
  });

  it('agrees with libphonenumber-js on real AU and US numbers', () => {
    for (const [input, region] of [
      ['0411 222 333', 'AU'],
      ['(212) 555-0123', 'US'],
    ] as const) {
      const result = toE164(input, region);
      expect(result.ok && result.e164).toBe(parsePhoneNumberFromString(input, region)?.number);
    }
  });
});
