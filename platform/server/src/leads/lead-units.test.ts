import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config';
import { formFieldsToLead } from '../routes/leads';
import { csvCell, leadsCsv } from '@dealer/leads/lead-csv';
import { requestHash, tokenMatches, updateTokenOf } from '@dealer/leads/lead-service';
import { backoffDelay } from '@dealer/db/outbox-attempt';
import { RateLimiter, retryAfterText, spamVerdict, withoutTrapFields } from '@dealer/leads/spam';
import { assertOutsideStaticRoots, cleanFileName, sniffFileType } from '@dealer/leads/uploads';
import { resolveDeliveryTarget } from '@dealer/leads/delivery-config';

const bytes = (...values: (number | string)[]) => Buffer.concat(values.map((value) => (typeof value === 'string' ? Buffer.from(value, 'latin1') : Buffer.from([value]))));

describe('file sniffing by magic bytes', () => {
  it.each([
    ['JPEG', bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 'JFIF'), 'image/jpeg', 'jpg'],
    ['PNG', bytes(0x89, 'PNG', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 'IHDR'), 'image/png', 'png'],
    ['WebP', bytes('RIFF', 0x24, 0, 0, 0, 'WEBPVP8 '), 'image/webp', 'webp'],
    ['HEIC', bytes(0, 0, 0, 0x18, 'ftypheic', 0, 0, 0, 0, 'mif1heic'), 'image/heic', 'heic'],
    ['HEIF (mif1)', bytes(0, 0, 0, 0x18, 'ftypmif1', 0, 0, 0, 0), 'image/heic', 'heic'],
    ['PDF', bytes('%PDF-1.7\n%âãÏÓ'), 'application/pdf', 'pdf'],
  ])('accepts %s', (_name, head, mime, ext) => {
    expect(sniffFileType(head)).toEqual({ ok: true, type: expect.objectContaining({ mime, ext }) });
  });

  it.each([
    ['SVG', bytes('<svg xmlns="http://www.w3.org/2000/svg"></svg>'), 'svg'],
    ['SVG with an XML declaration and BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes('  <?xml version="1.0"?>\n<!-- x -->\n<svg>')]), 'svg'],
    ['ELF', bytes(0x7f, 'ELF', 2, 1, 1), 'executable'],
    ['Windows PE', bytes('MZ', 0x90, 0), 'executable'],
    ['Mach-O', bytes(0xcf, 0xfa, 0xed, 0xfe, 7, 0, 0, 1), 'executable'],
    ['a shell script', bytes('#!/bin/sh\nrm -rf /'), 'executable'],
    ['HTML', bytes('<!doctype html><script>alert(1)</script>'), 'unknown'],
    ['AVIF (not HEIC)', bytes(0, 0, 0, 0x1c, 'ftypavif'), 'unknown'],
    ['an empty file', Buffer.alloc(0), 'empty'],
  ])('refuses %s', (_name, head, kind) => {
    expect(sniffFileType(head)).toMatchObject({ ok: false, kind });
  });

  it('keeps only a clean base name of the shopper\'s file for the dealer', () => {
    expect(cleanFileName('C:\\Users\\me\\My Car.jpg')).toBe('My Car.jpg');
    expect(cleanFileName('../../etc/passwd')).toBe('passwd');
    expect(cleanFileName('a\u0000b\nc.png')).toBe('abc.png');
    expect(cleanFileName('')).toBe('file');
    expect(cleanFileName('x'.repeat(300))).toHaveLength(120);
  });

  it('refuses an uploads folder inside (or around) a static folder', () => {
    expect(() => assertOutsideStaticRoots('/srv/data/uploads', ['/srv/app/client', '/srv/app/remotes'])).not.toThrow();
    expect(() => assertOutsideStaticRoots('/srv/app/client/uploads', ['/srv/app/client'])).toThrow(/must not be inside/);
    expect(() => assertOutsideStaticRoots('/srv/app', ['/srv/app/client'])).toThrow(/must not be inside/);
  });
});

describe('spam defences', () => {
  const now = 1_750_000_000_000;
  it('holds a filled honeypot and a too-fast submit, and nothing else', () => {
    expect(spamVerdict({ website: 'x' }, now, 2000)).toMatchObject({ spam: true, reason: expect.stringContaining('website') });
    expect(spamVerdict({ company_url: ' http://a ' }, now, 2000)).toMatchObject({ spam: true });
    expect(spamVerdict({ website: '  ' }, now, 2000)).toEqual({ spam: false });
    expect(spamVerdict({ form_started_at: now - 1999 }, now, 2000)).toMatchObject({ spam: true, reason: expect.stringContaining('1999 ms') });
    expect(spamVerdict({ form_started_at: String(now - 500) }, now, 2000)).toMatchObject({ spam: true });
    expect(spamVerdict({ form_started_at: now - 2000 }, now, 2000)).toEqual({ spam: false });
    expect(spamVerdict({ form_started_at: now + 5000 }, now, 2000)).toEqual({ spam: false });
    expect(spamVerdict({ form_started_at: 'yesterday' }, now, 2000)).toEqual({ spam: false });
    expect(spamVerdict({}, now, 2000)).toEqual({ spam: false });
    expect(spamVerdict({ form_started_at: now - 10 }, now, 0)).toEqual({ spam: false });
  });

  it('takes the trap fields out of what is stored', () => {
    expect(withoutTrapFields({ name: 'A', website: '', company_url: 'x', form_started_at: 1 })).toEqual({ name: 'A' });
  });

  it('limits hits per key in a sliding window and says when the next one is allowed', () => {
    const limiter = new RateLimiter(3, 60_000);
    expect(limiter.take('a', 0)).toEqual({ ok: true });
    expect(limiter.take('a', 10_000)).toEqual({ ok: true });
    expect(limiter.take('a', 20_000)).toEqual({ ok: true });
    expect(limiter.take('a', 30_000)).toEqual({ ok: false, retryAfterMs: 30_000 });
    expect(limiter.take('b', 30_000)).toEqual({ ok: true });
    expect(limiter.take('a', 60_001)).toEqual({ ok: true });
    expect(limiter.take('a', 60_002)).toEqual({ ok: false, retryAfterMs: 9_998 });
    expect(new RateLimiter(0, 1000).take('x')).toEqual({ ok: true });
  });

  it('words the retry time for people', () => {
    expect(retryAfterText(1)).toBe('1 second');
    expect(retryAfterText(45_000)).toBe('45 seconds');
    expect(retryAfterText(61_000)).toBe('2 minutes');
    expect(retryAfterText(600_000)).toBe('10 minutes');
  });
});

describe('update tokens and request hashes', () => {
  it('derives a token per lead and salt, checked in constant time', () => {
    const token = updateTokenOf('secret-0123456789abcdef', 42, 'salt');
    expect(token).toMatch(/^[\w-]{43}$/);
    expect(updateTokenOf('secret-0123456789abcdef', 43, 'salt')).not.toBe(token);
    expect(updateTokenOf('another-secret-0123456789', 42, 'salt')).not.toBe(token);
    expect(tokenMatches(token, token)).toBe(true);
    expect(tokenMatches(`${token}x`, token)).toBe(false);
    expect(tokenMatches('', token)).toBe(false);
  });

  it('hashes the same body the same whatever its key order, and files by content', () => {
    expect(requestHash({ a: 1, b: { c: [1, 2], d: 'x' } })).toBe(requestHash({ b: { d: 'x', c: [1, 2] }, a: 1 }));
    expect(requestHash({ a: 1 })).not.toBe(requestHash({ a: 2 }));
    expect(requestHash({ a: 1 }, [{ sha256: 'f1' }])).not.toBe(requestHash({ a: 1 }, [{ sha256: 'f2' }]));
  });
});

describe('form-serialised leads', () => {
  it('reads a JSON lead field, lead[...] pairs and plain names, with the contract\'s types', () => {
    expect(formFieldsToLead([['lead', '{"name":"Jane","opt_in":true}']])).toEqual({ name: 'Jane', opt_in: true });
    expect(
      formFieldsToLead([
        ['lead[name]', 'Jane'],
        ['lead[opt_in]', 'false'],
        ['lead[car_id]', '17'],
        ['lead[visited_pages][]', '/a'],
        ['lead[visited_pages][]', '/b'],
        ['lead[linked_query_params][gclid]', 'g'],
        ['phone', '0411222333'],
        ['update_token', 'never stored'],
        ['lead[__proto__]', 'x'],
      ]),
    ).toEqual({ name: 'Jane', opt_in: false, car_id: 17, visited_pages: ['/a', '/b'], linked_query_params: { gclid: 'g' }, phone: '0411222333' });
    expect(formFieldsToLead([['lead', 'not json']])).toBeNull();
    expect(formFieldsToLead([['lead', '[1,2]']])).toBeNull();
  });
});

describe('CSV export', () => {
  it('escapes cells as RFC 4180 says and defuses formulas', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(' padded ')).toBe('" padded "');
    expect(csvCell('=1+2')).toBe("'=1+2");
    expect(csvCell('+61 411')).toBe("'+61 411");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell(null)).toBe('');
    expect(csvCell(true)).toBe('true');
    expect(csvCell({ a: 'b,c' })).toBe('"{""a"":""b,c""}"');
  });

  it('writes a header and one CRLF line per lead, other fields as JSON', () => {
    const csv = leadsCsv([
      {
        id: 7,
        site_id: 1,
        category: 'General Enquiry',
        lead_status: 'New',
        payload: { name: 'Jane', message: 'Hi, there', 'Trade-in km': 12000 },
        created_at: Date.UTC(2025, 0, 2),
        updated_at: Date.UTC(2025, 0, 2),
        form_completed: true,
        has_files: false,
        suspected_spam: false,
        spam_reason: null,
        mock: false,
        completed_at: Date.UTC(2025, 0, 2),
        delivery: { state: 'delivered', targets: [] },
      },
    ]);
    const [header, row, end] = csv.split('\r\n');
    expect(header).toMatch(/^id,created_at,updated_at,category,lead_status,name,middle_name,last_name,email,phone,/);
    expect(row).toMatch(/^7,2025-01-02T00:00:00\.000Z,2025-01-02T00:00:00\.000Z,General Enquiry,New,Jane,,,,,/);
    expect(row).toContain('"Hi, there"');
    expect(row).toMatch(/,delivered,"\{""Trade-in km"":12000\}"$/);
    expect(end).toBe('');
  });
});

describe('delivery', () => {
  it('backs off by the configured steps, the last repeating', () => {
    const steps = [1000, 5000, 30000];
    expect([1, 2, 3, 4, 9].map((failures) => backoffDelay(steps, failures))).toEqual([1000, 5000, 30000, 30000, 30000]);
  });

  it('resolves a target from data and says what is missing', () => {
    const env = { dataDir: '/data', smtpUrl: null, emailFrom: 'leads@x' };
    const secrets = { lead_webhook_secret: 'a-webhook-secret-0123456789' } as never;
    expect(resolveDeliveryTarget({ kind: 'adf-file' }, { secrets }, env)).toEqual({ ok: true, target: { kind: 'adf-file', dir: '/data/outbox' } });
    expect(resolveDeliveryTarget({ kind: 'webhook', url: 'https://hook.example/x' }, { secrets }, env)).toEqual({
      ok: true,
      target: { kind: 'webhook', url: 'https://hook.example/x', secret: 'a-webhook-secret-0123456789' },
    });
    expect(resolveDeliveryTarget({ kind: 'webhook', url: 'https://hook.example/x' }, { secrets: { lead_webhook_secret: null } as never }, env)).toMatchObject({ ok: false });
    expect(resolveDeliveryTarget({ kind: 'adf-email', to: 'crm@dealer.example' }, { secrets }, env)).toEqual({ ok: false, detail: expect.stringContaining('SMTP_URL') });
    expect(resolveDeliveryTarget({ kind: 'adf-email', to: 'crm@dealer.example' }, { secrets }, { ...env, smtpUrl: 'smtp://127.0.0.1:2525' })).toEqual({
      ok: true,
      target: { kind: 'adf-email', to: 'crm@dealer.example', from: 'leads@x', smtpUrl: 'smtp://127.0.0.1:2525' },
    });
  });
});

describe('lead pipeline configuration', () => {
  it('takes every lead setting from the environment', () => {
    const config = loadConfig(
      {
        LEADS_MOCK_MODE: 'true',
        LEAD_TOKEN_SECRET: 'a-lead-token-secret-0123',
        LEADS_RATE_LIMIT: '5',
        LEADS_RATE_WINDOW_SECONDS: '60',
        LEADS_MIN_FILL_MS: '1500',
        BOOKINGS_PER_CONTACT_PER_DAY: '1',
        BOOKINGS_PER_CONTACT_UPCOMING: '3',
        BOOKINGS_PER_ADDRESS_PER_DAY: '0',
        LEAD_UPLOAD_MAX_BYTES: '2048',
        LEAD_UPLOAD_MAX_FILES: '2',
        LEAD_UPLOAD_MAX_MB_PER_LEAD: '3',
        LEAD_UPLOAD_MAX_MB_PER_ADDRESS_PER_DAY: '7',
        LEAD_UPLOAD_MAX_MB_PER_SITE_PER_DAY: '50',
        LEAD_DELIVERY_WORKER: 'off',
        LEAD_DELIVERY_POLL_MS: '100',
        LEAD_DELIVERY_BACKOFF_MS: '10, 20,30',
        LEAD_DELIVERY_MAX_ATTEMPTS: '4',
        LEAD_DELIVERY_LEASE_MS: '5000',
        SMTP_URL: 'smtp://mail.example:25',
        LEAD_EMAIL_FROM: 'web@dealer.example',
      },
      '/srv',
    );
    expect(config.leads).toEqual({
      mockMode: true,
      tokenSecret: 'a-lead-token-secret-0123',
      tokenSecretGenerated: false,
      rateLimit: { max: 5, windowMs: 60_000 },
      minFillMs: 1500,
      bookingLimits: { perContactPerDay: 1, perContactUpcoming: 3, perAddressPerDay: 0 },
      uploads: { maxBytes: 2048, maxFiles: 2, maxBytesPerLead: 3 * 1024 * 1024, maxBytesPerAddressPerDay: 7 * 1024 * 1024, maxBytesPerSitePerDay: 50 * 1024 * 1024 },
      delivery: { worker: false, pollMs: 100, backoffMs: [10, 20, 30], maxAttempts: 4, leaseMs: 5000, smtpUrl: 'smtp://mail.example:25', emailFrom: 'web@dealer.example' },
    });
  });

  it('names a bad lead setting', () => {
    const messageOf = (env: NodeJS.ProcessEnv) => {
      try {
        loadConfig(env, '/srv');
      } catch (error) {
        if (error instanceof ConfigError) return error.message;
      }
      return '';
    };
    expect(messageOf({ LEADS_MOCK_MODE: 'maybe' })).toContain('LEADS_MOCK_MODE must be one of 1, 0, true, false, yes, no, on, off');
    expect(messageOf({ LEAD_DELIVERY_BACKOFF_MS: '1s,5s' })).toContain('LEAD_DELIVERY_BACKOFF_MS must be milliseconds separated by commas');
    expect(messageOf({ LEAD_UPLOAD_MAX_MB_PER_LEAD: '0' })).toContain('LEAD_UPLOAD_MAX_MB_PER_LEAD must be at least 1');
    expect(messageOf({ LEAD_UPLOAD_MAX_MB_PER_SITE_PER_DAY: 'lots' })).toContain('LEAD_UPLOAD_MAX_MB_PER_SITE_PER_DAY must be a whole number');
    expect(messageOf({ SMTP_URL: 'http://mail' })).toContain('SMTP_URL must be an smtp:// or smtps:// URL');
    expect(messageOf({ BOOKINGS_PER_CONTACT_PER_DAY: '-1' })).toContain('BOOKINGS_PER_CONTACT_PER_DAY must be 0 (off) or more');
    expect(messageOf({ BOOKINGS_PER_ADDRESS_PER_DAY: 'a few' })).toContain('BOOKINGS_PER_ADDRESS_PER_DAY must be a whole number');
    expect(messageOf({ LEAD_TOKEN_SECRET: 'short' })).toContain('LEAD_TOKEN_SECRET must be at least 16 characters');
  });
});
