import { describe, expect, it } from 'vitest';
import { resolveDeliveryTarget } from './delivery-config';

describe('delivery', () => {
  it('resolves a target from data and says what is missing', () => {
    const env = { dataDir: '/data', smtpUrl: null, emailFrom: 'leads@x' };
    const secrets = { lead_webhook_secret: 'a-webhook-secret-0123456789' } as never;
    expect(resolveDeliveryTarget({ kind: 'adf-file' }, { secrets }, env)).toEqual({
      ok: true,
      target: { kind: 'adf-file', dir: '/data/outbox' },
    });
    expect(resolveDeliveryTarget({ kind: 'webhook', url: 'https://hook.example/x' }, { secrets }, env)).toEqual({
      ok: true,
      target: { kind: 'webhook', url: 'https://hook.example/x', secret: 'a-webhook-secret-0123456789' },
    });
    expect(
      resolveDeliveryTarget({ kind: 'webhook', url: 'https://hook.example/x' }, { secrets: { lead_webhook_secret: null } as never }, env),
    ).toMatchObject({ ok: false });
    expect(resolveDeliveryTarget({ kind: 'adf-email', to: 'crm@dealer.example' }, { secrets }, env)).toEqual({
      ok: false,
      detail: expect.stringContaining('SMTP_URL'),
    });
    expect(
      resolveDeliveryTarget({ kind: 'adf-email', to: 'crm@dealer.example' }, { secrets }, { ...env, smtpUrl: 'smtp://127.0.0.1:2525' }),
    ).toEqual({
      ok: true,
      target: { kind: 'adf-email', to: 'crm@dealer.example', from: 'leads@x', smtpUrl: 'smtp://127.0.0.1:2525' },
    });
  });
});
