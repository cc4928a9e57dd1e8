import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

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
      uploads: {
        maxBytes: 2048,
        maxFiles: 2,
        maxBytesPerLead: 3 * 1024 * 1024,
        maxBytesPerAddressPerDay: 7 * 1024 * 1024,
        maxBytesPerSitePerDay: 50 * 1024 * 1024,
      },
      delivery: {
        worker: false,
        pollMs: 100,
        backoffMs: [10, 20, 30],
        maxAttempts: 4,
        leaseMs: 5000,
        smtpUrl: 'smtp://mail.example:25',
        emailFrom: 'web@dealer.example',
      },
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
    expect(messageOf({ LEAD_UPLOAD_MAX_MB_PER_SITE_PER_DAY: 'lots' })).toContain(
      'LEAD_UPLOAD_MAX_MB_PER_SITE_PER_DAY must be a whole number',
    );
    expect(messageOf({ SMTP_URL: 'http://mail' })).toContain('SMTP_URL must be an smtp:// or smtps:// URL');
    expect(messageOf({ BOOKINGS_PER_CONTACT_PER_DAY: '-1' })).toContain('BOOKINGS_PER_CONTACT_PER_DAY must be 0 (off) or more');
    expect(messageOf({ BOOKINGS_PER_ADDRESS_PER_DAY: 'a few' })).toContain('BOOKINGS_PER_ADDRESS_PER_DAY must be a whole number');
    expect(messageOf({ LEAD_TOKEN_SECRET: 'short' })).toContain('LEAD_TOKEN_SECRET must be at least 16 characters');
  });
});
