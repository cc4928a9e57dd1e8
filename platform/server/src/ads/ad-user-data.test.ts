import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashedUserData, metaCookies, normaliseName, normalisePhoneForAds, normalisePostcode, scrubbedPageUrl } from './ad-user-data';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('the shopper details of an ad event, hashed the Meta way', () => {
  it('hashes each field normalised, and keeps the client address and browser as they are', () => {
    const data = hashedUserData(
      {
        email: '  Ana.Shopper@Example.COM ',
        phone: '0411 222 333',
        first_name: ' Ana ',
        last_name: 'SHOPPER',
        postcode: ' 2000 ',
        external_id: ' anon-Abc ',
      },
      'en-AU',
      { ip: '203.0.113.9', userAgent: 'TestBrowser/1.0', fbp: 'fb.1.1700000000000.123' },
    );
    expect(data).toEqual({
      em: [sha256('ana.shopper@example.com')],
      ph: [sha256('61411222333')],
      fn: sha256('ana'),
      ln: sha256('shopper'),
      zp: sha256('2000'),
      external_id: sha256('anon-Abc'),
      client_ip_address: '203.0.113.9',
      client_user_agent: 'TestBrowser/1.0',
      fbp: 'fb.1.1700000000000.123',
    });
  });

  it('leaves out what is empty or unusable rather than hashing rubbish', () => {
    expect(
      hashedUserData(
        { email: 'not an address', phone: '12', first_name: '  ', last_name: '!!!', postcode: '', external_id: null },
        'en-AU',
      ),
    ).toEqual({});
    expect(hashedUserData({}, 'en-US')).toEqual({});
  });

  it.each([
    ['0411 222 333', 'en-AU', '61411222333'],
    ['+61 411 222 333', 'en-AU', '61411222333'],
    ['0061 411 222 333', 'en-AU', '61411222333'],
    ['(02) 9876 5432', 'en-AU', '61298765432'],
    ['+64 21 123 4567', 'en-AU', '64211234567'],
    ['(212) 555-0123', 'en-US', '12125550123'],
    ['1 212 555 0123', 'en-US', '12125550123'],
    ['021 123 4567', 'en-NZ', '64211234567'],
    // A Wellington landline: not the Australian 04 mobile rule.
    ['04 123 4567', 'en-NZ', '6441234567'],
    ['+61 411 222 333', 'en-NZ', '61411222333'],
  ] as const)('writes %s on an %s site as %s', (input, locale, digits) => {
    expect(normalisePhoneForAds(input, locale)).toBe(digits);
  });

  it.each([['abc'], ['12'], ['0000 000'], ['']])('drops %j, which is no phone number', (input) => {
    expect(normalisePhoneForAds(input, 'en-AU')).toBeNull();
  });

  it('lower-cases names, trims them and drops punctuation; keeps accented letters in one form', () => {
    expect(normaliseName("  O'Brien ")).toBe('obrien');
    expect(normaliseName('Zoe\u0308')).toBe('zoë');
    expect(normaliseName('Mary  Jane')).toBe('mary jane');
  });

  it('writes postcodes lower-case without spaces, and a US ZIP+4 as its five digits', () => {
    expect(normalisePostcode(' 2000 ', 'en-AU')).toBe('2000');
    expect(normalisePostcode('90210-1234', 'en-US')).toBe('90210');
    expect(normalisePostcode('SW1A 1AA', 'en-AU')).toBe('sw1a1aa');
  });

  it("reads Meta's own cookies and nothing else", () => {
    expect(metaCookies('a=1; _fbp=fb.1.1700000000000.987654321; _fbc=fb.1.1700000000000.IwAR2abc; x=y')).toEqual({
      fbp: 'fb.1.1700000000000.987654321',
      fbc: 'fb.1.1700000000000.IwAR2abc',
    });
    expect(metaCookies('_fbp=<script>; _fbc=')).toEqual({});
    expect(metaCookies(undefined)).toEqual({});
  });

  it('never forwards the shopper in the page address', () => {
    expect(scrubbedPageUrl('https://dealer.example/success?email=ana%40example.com&utm_source=fb#top', [])).toBe(
      'https://dealer.example/success?utm_source=fb',
    );
    expect(scrubbedPageUrl('https://dealer.example/thanks?c=ana%40x.com&p=0411222333&ref=home', ['ana@x.com', '0411 222 333'])).toBe(
      'https://dealer.example/thanks?ref=home',
    );
    expect(scrubbedPageUrl('https://user:pw@dealer.example/cars/abc', [])).toBe('https://dealer.example/cars/abc');
    expect(scrubbedPageUrl('javascript:alert(1)', [])).toBeNull();
    expect(scrubbedPageUrl('not a url', [])).toBeNull();
  });
});
