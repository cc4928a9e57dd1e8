import { describe, expect, it } from 'vitest';
import {
  deliveredFileNames,
  LEAD_FILE_LINK_TTL_SECONDS,
  leadFileName,
  leadFileSignature,
  signedLeadFileUrl,
  verifyLeadFileLink,
} from './lead-file-links';

const secret = 'lead-token-secret-0123456789abcdef';
const now = 1_750_000_000;
const expires = now + LEAD_FILE_LINK_TTL_SECONDS;
const sig = leadFileSignature(secret, 7, expires);
/** The signature with its first character changed (to another valid base64url character). */
const tampered = `${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`;

describe('signedLeadFileUrl', () => {
  it.each([
    ['an origin', 'https://dealer.example'],
    ['a trailing slash', 'https://dealer.example/'],
    ['a path', 'https://dealer.example/cars/'],
  ])('builds <origin>/api/lead-files/<id>?expires&sig from a site url with %s', (_label, siteUrl) => {
    expect(signedLeadFileUrl({ siteUrl, fileId: 7, expires, secret })).toBe(
      `https://dealer.example/api/lead-files/7?expires=${expires}&sig=${sig}`,
    );
  });

  it('keeps a local port', () => {
    expect(signedLeadFileUrl({ siteUrl: 'http://metro.localhost:3000', fileId: 7, expires, secret })).toMatch(
      /^http:\/\/metro\.localhost:3000\/api\/lead-files\/7\?/,
    );
  });

  it('signs with HMAC-SHA256 of lead-file:<id>:<expires>, base64url, 43 characters', () => {
    expect(sig).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(leadFileSignature(secret, 7, expires)).toBe(sig);
    expect(leadFileSignature(secret, 8, expires)).not.toBe(sig);
  });
});

describe('verifyLeadFileLink', () => {
  it.each([
    ['the link as signed', { fileId: 7, expires: String(expires), sig }, secret, now, { ok: true }],
    ['one second before it expires', { fileId: 7, expires: String(expires), sig }, secret, expires - 1, { ok: true }],
    ['at its expiry', { fileId: 7, expires: String(expires), sig }, secret, expires, { ok: false, reason: 'expired' }],
    ['long after', { fileId: 7, expires: String(expires), sig }, secret, expires + 86_400, { ok: false, reason: 'expired' }],
    ['a tampered signature', { fileId: 7, expires: String(expires), sig: tampered }, secret, now, { ok: false, reason: 'invalid' }],
    ['a later expiry than signed', { fileId: 7, expires: String(expires + 1), sig }, secret, now, { ok: false, reason: 'invalid' }],
    ['another file id', { fileId: 8, expires: String(expires), sig }, secret, now, { ok: false, reason: 'invalid' }],
    [
      'another secret',
      { fileId: 7, expires: String(expires), sig },
      'another-secret-0123456789abcdef',
      now,
      { ok: false, reason: 'invalid' },
    ],
    [
      'an empty secret',
      { fileId: 7, expires: String(expires), sig: leadFileSignature('', 7, expires) },
      '',
      now,
      { ok: false, reason: 'invalid' },
    ],
    ['no signature', { fileId: 7, expires: String(expires), sig: undefined }, secret, now, { ok: false, reason: 'invalid' }],
    ['no expiry', { fileId: 7, expires: undefined, sig }, secret, now, { ok: false, reason: 'invalid' }],
    ['a repeated sig parameter', { fileId: 7, expires: String(expires), sig: [sig, sig] }, secret, now, { ok: false, reason: 'invalid' }],
    ['an expiry that is not a number', { fileId: 7, expires: `${expires}.0`, sig }, secret, now, { ok: false, reason: 'invalid' }],
    ['a padded signature', { fileId: 7, expires: String(expires), sig: `${sig}=` }, secret, now, { ok: false, reason: 'invalid' }],
    ['a short signature', { fileId: 7, expires: String(expires), sig: sig.slice(0, -1) }, secret, now, { ok: false, reason: 'invalid' }],
    ['a hex signature', { fileId: 7, expires: String(expires), sig: 'ab'.repeat(32) }, secret, now, { ok: false, reason: 'invalid' }],
  ])('%s', (_label, link, checkedSecret, at, expected) => {
    expect(verifyLeadFileLink(link, checkedSecret, at)).toEqual(expected);
  });

  it('opens what signedLeadFileUrl made', () => {
    const url = new URL(signedLeadFileUrl({ siteUrl: 'https://dealer.example', fileId: 12, expires, secret }));
    const fileId = Number(url.pathname.split('/').pop());
    expect(
      verifyLeadFileLink(
        { fileId, expires: url.searchParams.get('expires') ?? undefined, sig: url.searchParams.get('sig') ?? undefined },
        secret,
        now,
      ),
    ).toEqual({ ok: true });
  });
});

describe('leadFileName', () => {
  it.each([
    ['passwd.png', 'ab12.png', 'passwd.png'],
    ['IMG_0001.JPG', 'ab12.jpg', 'IMG_0001.JPG'],
    ['scan.jpeg', 'ab12.jpg', 'scan.jpeg'],
    ['IMG_0002.heif', 'ab12.heic', 'IMG_0002.heif'],
    ['photo', 'ab12.jpg', 'photo.jpg'],
    ['invoice.exe', 'ab12.jpg', 'invoice.exe.jpg'],
    ['rego: "copy" <1>?.pdf', 'ab12.pdf', 'rego_ _copy_ _1__.pdf'],
    ['tab\there.png', 'ab12.png', 'tabhere.png'],
    ['  .hidden.png  ', 'ab12.png', 'hidden.png'],
    ['...', 'ab12.png', 'file.png'],
    ['', 'ab12.webp', 'file.webp'],
    ['Wagen für Händler.png', 'ab12.png', 'Wagen für Händler.png'],
    // A name stored before uploads were cleaned: its direction override would show `invoiceexe.jpg` as `invoicegpj.exe`.
    ['invoice\u202Egpj.exe', 'ab12.jpg', 'invoicegpj.exe.jpg'],
  ])('%j stored as %s → %j', (original, stored, expected) => {
    expect(leadFileName(original, `/data/uploads/site/1/${stored}`)).toBe(expected);
  });
});

describe('leadFileName on any file system', () => {
  it('cuts a long name to 150 bytes of whole characters and keeps the real extension', () => {
    const name = leadFileName(`${'我的车照片'.repeat(20)}.jpg`, '/data/uploads/site/1/abc.jpg');
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(150);
    expect(name.endsWith('.jpg')).toBe(true);
    expect(name.startsWith('我的车照片')).toBe(true);
    expect(leadFileName('short.png', '/data/uploads/site/1/abc.png')).toBe('short.png');
  });
});

describe('deliveredFileNames', () => {
  const file = (name: string, stored = 'x.jpg') => ({ name, absolutePath: `/data/uploads/site/1/${stored}` });

  it('tells alike names apart, ignoring case, in order', () => {
    expect(deliveredFileNames([file('photo.jpg'), file('Photo.JPG'), file('photo'), file('rego.pdf', 'y.pdf')])).toEqual([
      'photo.jpg',
      'Photo (2).JPG',
      'photo (3).jpg',
      'rego.pdf',
    ]);
  });

  it('never makes a name that another file already has', () => {
    expect(deliveredFileNames([file('photo.jpg'), file('photo (2).jpg'), file('photo.jpg')])).toEqual([
      'photo.jpg',
      'photo (2).jpg',
      'photo (3).jpg',
    ]);
  });
});
