import { afterEach, describe, expect, it } from 'vitest';
import { leadToAdf } from '@dealer/leads/adf';
import { validateAdfStructure } from '@dealer/testing/adf-validate';
import {
  deliverLead,
  deliveryTargetSchema,
  describeDeliveryTarget,
  signWebhookBody,
  verifyWebhookSignature,
  webhookBody,
  type DeliveryTarget,
} from '@dealer/leads/delivery-targets';
import { closedPort, hang, lead, reply, secret, shortTimeout, site, startReceiver, type Receiver } from '../testing/lead-delivery';

// The delivery targets that post a lead over HTTP: a signed webhook (and checking its signature) and
// an ADF document posted to a CRM; and how a target is configured. The ADF file and ADF e-mail targets,
// and leads with files, are in delivery-targets.file-and-email.test.ts.

let receiver: Receiver | null = null;
afterEach(async () => {
  await receiver?.close();
  receiver = null;
});

// ------------------------------------------------------------------------------------- webhook

describe('webhook target', () => {
  it('2xx: delivered, signed body verified by the receiver, delivery headers set', async () => {
    const verified: boolean[] = [];
    receiver = await startReceiver((request, response) => {
      const ok = verifyWebhookSignature(request.body, String(request.headers['x-dealer-signature']), secret);
      verified.push(ok);
      reply(ok ? 202 : 401, ok ? '{"received":true}' : 'bad signature')(request, response);
    });
    const target: DeliveryTarget = { kind: 'webhook', url: receiver.url, secret };
    const before = Math.floor(Date.now() / 1000);
    const result = await deliverLead(target, lead);
    expect(result).toEqual({ ok: true, status: 'delivered', detail: '202 {"received":true}' });
    expect(verified).toEqual([true]);
    const [request] = receiver.requests;
    expect(request!.method).toBe('POST');
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['idempotency-key']).toBe('lead-42');
    expect(request!.headers['x-dealer-signature']).toBe(signWebhookBody(request!.body, secret));
    expect(Number(request!.headers['x-dealer-timestamp'])).toBeGreaterThanOrEqual(before);
    expect(request!.headers['x-dealer-delivery']).toMatch(/^[0-9a-f-]{36}$/);
    expect(request!.body).toBe(webhookBody(lead));
    expect(JSON.parse(request!.body)).toEqual({
      event: 'lead.created',
      lead: { id: 42, site: site.slug, created_at: '2025-05-06T23:15:42.123Z', payload: lead.payload, files: [] },
    });

    await deliverLead(target, lead);
    expect(receiver.requests[1]!.headers['x-dealer-delivery']).not.toBe(request!.headers['x-dealer-delivery']);
    expect(receiver.requests[1]!.headers['idempotency-key']).toBe('lead-42');
  });

  it.each([
    [500, 'boom', 'retry'],
    [503, 'maintenance', 'retry'],
    [408, 'request timeout', 'retry'],
    [429, 'slow down', 'retry'],
    [400, '{"error":"missing field email"}', 'rejected'],
    [401, 'unauthorised', 'rejected'],
    [404, 'no such hook', 'rejected'],
    [410, 'gone', 'rejected'],
  ])('%i → %s', async (code, body, status) => {
    receiver = await startReceiver(reply(code, body));
    const result = await deliverLead({ kind: 'webhook', url: receiver.url, secret }, lead);
    expect(result).toEqual({ ok: false, status, detail: `${code} ${body}` });
  });

  it('passes Retry-After on in the detail', async () => {
    receiver = await startReceiver(reply(429, 'slow down', { 'Retry-After': '30' }));
    const result = await deliverLead({ kind: 'webhook', url: receiver.url, secret }, lead);
    expect(result).toMatchObject({ status: 'retry', detail: '429 slow down (retry-after 30)' });
  });

  it('keeps the detail short for a long body', async () => {
    receiver = await startReceiver(reply(500, `<html>${'x'.repeat(100_000)}</html>`));
    const result = await deliverLead({ kind: 'webhook', url: receiver.url, secret }, lead);
    expect(result.status).toBe('retry');
    expect(result.detail.length).toBeLessThanOrEqual(200);
    expect(result.detail.startsWith('500 <html>xxx')).toBe(true);
  });

  it('a redirect is not followed and is rejected', async () => {
    receiver = await startReceiver(reply(301, '', { Location: 'https://elsewhere.example/hook' }));
    const result = await deliverLead({ kind: 'webhook', url: receiver.url, secret }, lead);
    expect(result).toMatchObject({ ok: false, status: 'rejected' });
    expect(result.detail).toContain('https://elsewhere.example/hook');
    expect(receiver.requests).toHaveLength(1);
  });

  it('a hanging receiver is a retry after the timeout', async () => {
    receiver = await startReceiver(hang);
    const started = Date.now();
    const result = await deliverLead({ kind: 'webhook', url: receiver.url, secret }, lead, shortTimeout);
    expect(result).toEqual({ ok: false, status: 'retry', detail: 'timeout after 300 ms' });
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('a receiver that sends headers and then hangs is judged by its status code', async () => {
    receiver = await startReceiver((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/plain' });
      response.write('ok so far');
    });
    const result = await deliverLead({ kind: 'webhook', url: receiver.url, secret }, lead, shortTimeout);
    expect(result).toEqual({ ok: true, status: 'delivered', detail: '200 ok so far' });
  });

  it('connection refused is a retry', async () => {
    const port = await closedPort();
    const result = await deliverLead({ kind: 'webhook', url: `http://127.0.0.1:${port}/`, secret }, lead, shortTimeout);
    expect(result).toMatchObject({ ok: false, status: 'retry' });
    expect(result.detail).toMatch(/^network error: ECONNREFUSED/);
  });

  it.each([
    ['no secret', { kind: 'webhook', url: 'http://127.0.0.1:9/', secret: '' }, /no secret/],
    ['an invalid url', { kind: 'webhook', url: 'not a url', secret }, /not a valid URL/],
    ['a non-http url', { kind: 'webhook', url: 'ftp://127.0.0.1/x', secret }, /http or https/],
  ] as const)('a target with %s is rejected', async (_label, target, detail) => {
    const result = await deliverLead(target, lead);
    expect(result).toMatchObject({ ok: false, status: 'rejected' });
    expect(result.detail).toMatch(detail);
  });
});

describe('verifyWebhookSignature', () => {
  const body = webhookBody(lead);
  const header = signWebhookBody(body, secret);

  it.each([
    ['the right signature', body, header, secret, true],
    ['upper-case hex', body, `sha256=${header.slice('sha256='.length).toUpperCase()}`, secret, true],
    ['one of several (secret rotation)', body, `sha256=${'0'.repeat(64)}, ${header}`, secret, true],
    ['another secret', body, header, 'another-secret-another-secret', false],
    ['a changed body', body.replace('Jane', 'Jone'), header, secret, false],
    ['a re-serialised body', JSON.stringify(JSON.parse(body), null, 2), header, secret, false],
    ['no prefix', body, header.slice('sha256='.length), secret, false],
    ['a short signature', body, header.slice(0, -2), secret, false],
    ['an empty header', body, '', secret, false],
    ['an empty secret', body, signWebhookBody(body, ''), '', false],
  ])('%s → %s', (_label, checkedBody, checkedHeader, checkedSecret, expected) => {
    expect(verifyWebhookSignature(checkedBody, checkedHeader, checkedSecret)).toBe(expected);
  });
});

// ------------------------------------------------------------------------------------ adf-http

describe('adf-http target', () => {
  it('2xx: delivered, the ADF document posted as application/xml', async () => {
    receiver = await startReceiver(reply(200, 'accepted'));
    const result = await deliverLead({ kind: 'adf-http', url: receiver.url }, lead);
    expect(result).toEqual({ ok: true, status: 'delivered', detail: '200 accepted' });
    const [request] = receiver.requests;
    expect(request!.headers['content-type']).toBe('application/xml');
    expect(request!.headers['idempotency-key']).toBe('lead-42');
    expect(request!.body).toBe(leadToAdf(lead));
    expect(validateAdfStructure(request!.body)).toEqual([]);
  });

  it.each([
    [502, 'bad gateway', 'retry'],
    [429, 'later', 'retry'],
    [422, 'invalid ADF', 'rejected'],
    [403, 'forbidden', 'rejected'],
  ])('%i → %s', async (code, body, status) => {
    receiver = await startReceiver(reply(code, body));
    expect(await deliverLead({ kind: 'adf-http', url: receiver.url }, lead)).toEqual({ ok: false, status, detail: `${code} ${body}` });
  });

  it('a hanging receiver is a retry after the timeout', async () => {
    receiver = await startReceiver(hang);
    expect(await deliverLead({ kind: 'adf-http', url: receiver.url }, lead, shortTimeout)).toEqual({
      ok: false,
      status: 'retry',
      detail: 'timeout after 300 ms',
    });
  });
});

// -------------------------------------------------------------------------------- configuration

describe('target configuration', () => {
  it.each([
    [{ kind: 'adf-file', dir: '/data/outbox' }, true],
    [{ kind: 'webhook', url: 'https://crm.example/hooks/leads', secret }, true],
    [{ kind: 'webhook', url: 'https://crm.example/hooks/leads', secret: 'short' }, false],
    [{ kind: 'webhook', url: 'ftp://crm.example/', secret }, false],
    [{ kind: 'adf-http', url: 'http://127.0.0.1:8080/adf' }, true],
    [{ kind: 'adf-email', to: 'leads@crm.example', from: 'web@dealer.example', smtpUrl: 'smtps://user:pass@mail.example:465' }, true],
    [{ kind: 'adf-email', to: 'leads@crm.example', from: 'web@dealer.example', smtpUrl: 'json://' }, false],
    [{ kind: 'fax', number: '123' }, false],
  ])('%j valid: %s', (target, valid) => {
    expect(deliveryTargetSchema.safeParse(target).success).toBe(valid);
  });

  it('describes targets without secrets or passwords', () => {
    expect(describeDeliveryTarget({ kind: 'webhook', url: 'https://crm.example/hook?token=abc', secret })).toBe(
      'webhook https://crm.example/hook?…',
    );
    expect(
      describeDeliveryTarget({ kind: 'adf-email', to: 'a@b.c', from: 'd@e.f', smtpUrl: 'smtps://user:hunter2@mail.example:465' }),
    ).toBe('adf-email to a@b.c via smtps://user:***@mail.example:465');
  });

  it('an unknown target kind is rejected, never thrown', async () => {
    expect(await deliverLead({ kind: 'fax' } as unknown as DeliveryTarget, lead)).toMatchObject({ ok: false, status: 'rejected' });
  });

  it('a lead that cannot be rendered is rejected', async () => {
    receiver = await startReceiver(reply(200, 'ok'));
    const result = await deliverLead({ kind: 'adf-http', url: receiver.url }, { ...lead, createdAt: Number.NaN });
    expect(result).toMatchObject({ ok: false, status: 'rejected' });
    expect(result.detail).toMatch(/cannot render lead 42/);
    expect(receiver.requests).toHaveLength(0);
  });
});
