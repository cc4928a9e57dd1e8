import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { freePort } from '@dealer/testing/free-port';
import { HostedPagePaymentProvider, signGatewayNotice } from './hosted-provider';
import { PaymentNoticeRefused, PaymentProviderFailed, type PaymentRequest } from './payment-provider';

const key = 'till-merchant-key-0123456789abcdef';

const deposit = (overrides: Partial<PaymentRequest> = {}): PaymentRequest => ({
  reservationId: 42,
  amountCents: 50_000,
  currency: 'AUD',
  description: 'Deposit on 2021 Mazda CX-5 (stock 1234)',
  customerEmail: 'ana@example.com',
  returnUrl: 'https://dealer.example/reserve/42',
  idempotencyKey: 'reservation-42-start',
  ...overrides,
});

type Seen = { method: string; path: string; authorization?: string; idempotencyKey?: string; body: unknown };
type Reply = { status: number; body: string; headers?: Record<string, string> };

/**
 * A hosted payment page gateway as the protocol in hosted-provider.ts describes it: one payment per
 * Idempotency-Key, a refund per key, and whatever odd answer a test asks for instead.
 */
async function startGateway() {
  const seen: Seen[] = [];
  const byKey = new Map<string, string>();
  let odd: Reply | null = null;
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
      seen.push({
        method: req.method ?? '',
        path: req.url ?? '',
        authorization: req.headers.authorization,
        idempotencyKey,
        body: JSON.parse(raw || 'null'),
      });
      const send = (reply: Reply) => res.writeHead(reply.status, { 'Content-Type': 'application/json', ...reply.headers }).end(reply.body);
      if (odd) return send(odd);
      if (req.headers.authorization !== `Bearer ${key}`) return send({ status: 401, body: '{"error":"bad key"}' });
      const answer = (make: () => object) => {
        const known = idempotencyKey && byKey.get(`${req.url} ${idempotencyKey}`);
        const body = known || JSON.stringify(make());
        if (idempotencyKey) byKey.set(`${req.url} ${idempotencyKey}`, body);
        send({ status: 201, body });
      };
      if (req.url === '/payments') {
        const id = `pay_${randomBytes(6).toString('hex')}`;
        return answer(() => ({ id, redirect_url: `https://pay.gateway.example/checkout/${id}` }));
      }
      if (/^\/payments\/[^/]+\/refunds$/.test(req.url ?? '')) return answer(() => ({ id: `ref_${randomBytes(6).toString('hex')}` }));
      send({ status: 404, body: '{"error":"not found"}' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    answerOddly(reply: Reply | null) {
      odd = reply;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('deposits through a hosted payment page', () => {
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  let provider: HostedPagePaymentProvider;
  beforeAll(async () => {
    gateway = await startGateway();
    provider = new HostedPagePaymentProvider({ kind: 'till', gateway: { url: `${gateway.url}/`, key } });
  });
  beforeEach(() => gateway.answerOddly(null));
  afterAll(() => gateway.close());

  it('sends the shopper to the gateway’s page for the deposit, asked for with the merchant key', async () => {
    const started = await provider.start(deposit());
    expect(started).toEqual({
      ref: expect.stringMatching(/^pay_/),
      clientSecret: null,
      redirectUrl: `https://pay.gateway.example/checkout/${started.ref}`,
    });
    expect(gateway.seen.at(-1)).toEqual({
      method: 'POST',
      path: '/payments',
      authorization: `Bearer ${key}`,
      idempotencyKey: 'reservation-42-start',
      body: {
        amount: 50_000,
        currency: 'AUD',
        reference: 'reservation-42',
        description: 'Deposit on 2021 Mazda CX-5 (stock 1234)',
        email: 'ana@example.com',
        return_url: 'https://dealer.example/reserve/42',
      },
    });
  });

  it('starts one payment for the deposit, however often the request is retried', async () => {
    const first = await provider.start(deposit({ reservationId: 43, idempotencyKey: 'reservation-43-start' }));
    expect(await provider.start(deposit({ reservationId: 43, idempotencyKey: 'reservation-43-start' }))).toEqual(first);
    expect(gateway.seen.filter((request) => request.idempotencyKey === 'reservation-43-start')).toHaveLength(2);
    expect((await provider.start(deposit({ reservationId: 44, idempotencyKey: 'reservation-44-start' }))).ref).not.toBe(first.ref);
  });

  it('refunds the deposit against the gateway’s payment, once per refund key', async () => {
    const { ref } = await provider.start(deposit({ reservationId: 45, idempotencyKey: 'reservation-45-start' }));
    const refund = await provider.refund(ref, 50_000, 'reservation-45-refund');
    expect(refund.ref).toMatch(/^ref_/);
    expect(await provider.refund(ref, 50_000, 'reservation-45-refund')).toEqual(refund);
    expect(gateway.seen.at(-1)).toEqual({
      method: 'POST',
      path: `/payments/${ref}/refunds`,
      authorization: `Bearer ${key}`,
      idempotencyKey: 'reservation-45-refund',
      body: { amount: 50_000 },
    });
  });

  it('tells the shopper to try again when the gateway refuses or answers in a way we cannot use, never naming the key', async () => {
    const oddAnswers: [Reply, RegExp][] = [
      [{ status: 503, body: '{"error":"maintenance"}' }, /Till refused to start the payment \(HTTP 503\)/],
      [{ status: 302, body: '', headers: { Location: 'https://elsewhere.example/payments' } }, /HTTP 302/],
      [{ status: 201, body: '<html>hello</html>' }, /answer we cannot read/],
      [{ status: 201, body: '{"redirect_url":"https://pay.gateway.example/x"}' }, /answer we cannot read/],
      [{ status: 201, body: '{"id":"pay_1","redirect_url":"javascript:alert(1)"}' }, /answer we cannot read/],
      [
        { status: 201, body: JSON.stringify({ id: 'pay_1', redirect_url: `https://pay.gateway.example/${'x'.repeat(70_000)}` }) },
        /more than 65536 bytes/,
      ],
    ];
    for (const [reply, message] of oddAnswers) {
      gateway.answerOddly(reply);
      const error: unknown = await provider.start(deposit()).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(PaymentProviderFailed);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).not.toContain(key);
    }
  });

  it('stops reading a gateway that streams an endless answer', async () => {
    let sentBytes = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        sentBytes += 16_384;
        controller.enqueue(new Uint8Array(16_384).fill(0x20));
      },
    });
    const streaming = new HostedPagePaymentProvider({
      kind: 'st_george',
      gateway: { url: 'https://gateway.example', key },
      fetch: async () => new Response(endless, { status: 201 }),
    });
    await expect(streaming.start(deposit())).rejects.toThrow(/St\.George answered with more than 65536 bytes/);
    expect(sentBytes).toBeLessThan(200_000);
  });

  it('tells the shopper to try again when the gateway cannot be reached', async () => {
    const port = await freePort();
    const unreachable = new HostedPagePaymentProvider({ kind: 'st_george', gateway: { url: `http://127.0.0.1:${port}`, key } });
    await expect(unreachable.start(deposit())).rejects.toThrow(
      new PaymentProviderFailed('St.George could not be reached to start the payment'),
    );
    await expect(unreachable.refund('pay_1', 50_000, 'reservation-42-refund')).rejects.toThrow(PaymentProviderFailed);
  });
});

describe('a hosted payment page gateway’s notifications', () => {
  const provider = new HostedPagePaymentProvider({ kind: 'till', gateway: { url: 'https://gateway.example', key } });
  const now = () => Math.floor(Date.now() / 1000);
  const read = (body: string, signature?: string) => provider.readNotice(Buffer.from(body), { 'x-gateway-signature': signature });
  const paid = JSON.stringify({ type: 'payment.succeeded', id: 'pay_1', reference: 'reservation-42' });

  it('reads a paid deposit and the reservation it is for', () => {
    expect(read(paid, signGatewayNotice(paid, key))).toEqual({ kind: 'paid', ref: 'pay_1', reservationId: 42 });
    const other = JSON.stringify({ type: 'payment.succeeded', id: 'pay_2', reference: 'invoice-7' });
    expect(read(other, signGatewayNotice(other, key))).toEqual({ kind: 'paid', ref: 'pay_2', reservationId: null });
  });

  it('reads a declined card with the gateway’s reason, or the usual words when it gives none', () => {
    const withReason = JSON.stringify({
      type: 'payment.failed',
      id: 'pay_1',
      reference: 'reservation-42',
      message: 'Your card has expired.',
    });
    expect(read(withReason, signGatewayNotice(withReason, key))).toEqual({
      kind: 'failed',
      ref: 'pay_1',
      reservationId: 42,
      message: 'Your card has expired.',
    });
    const noReason = JSON.stringify({ type: 'payment.failed', id: 'pay_1', reference: 'reservation-42' });
    expect(read(noReason, signGatewayNotice(noReason, key))).toMatchObject({ kind: 'failed', message: 'Your card was declined.' });
  });

  it('ignores what the gateway says about anything else', () => {
    const body = JSON.stringify({ type: 'payout.sent', id: 'po_1' });
    expect(read(body, signGatewayNotice(body, key))).toEqual({ kind: 'ignored', type: 'payout.sent' });
  });

  it('accepts a notification signed a little while ago', () => {
    expect(read(paid, signGatewayNotice(paid, key, now() - 240))).toMatchObject({ kind: 'paid' });
  });

  it('refuses a notification signed with another key, changed on the way, unsigned, or signed long ago', () => {
    const refused = [
      () => read(paid, signGatewayNotice(paid, 'someone-elses-key-0123456789')),
      () => read(paid.replace('reservation-42', 'reservation-43'), signGatewayNotice(paid, key)),
      () => read(paid),
      () => read(paid, 'garbage'),
      () => read(paid, signGatewayNotice(paid, key).replace(/v1=\w+/, 'v1=abc')),
      () => read(paid, signGatewayNotice(paid, key, now() - 301)),
      () => read(paid, signGatewayNotice(paid, key, now() + 301)),
      () => read('not json', signGatewayNotice('not json', key)),
      () => read('{"type":"payment.succeeded"}', signGatewayNotice('{"type":"payment.succeeded"}', key)),
    ];
    for (const reading of refused) expect(reading).toThrow(PaymentNoticeRefused);
  });
});
