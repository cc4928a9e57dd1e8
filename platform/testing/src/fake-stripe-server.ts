/**
 * A local stand-in for Stripe's API on 127.0.0.1, speaking just enough of it for stripe-node to
 * start PaymentIntents and refund them: form-encoded requests, Stripe's Idempotency-Key rules
 * (same key, same answer; same key with other parameters, a 400 idempotency_error) and its error
 * shape `{ error: { type, message } }`. It records every request and can fail the next few with a
 * 500 or insist on the dealership's secret key. Test and demo support only: production code does
 * not import it; point StripePaymentProvider's `api` (or STRIPE_API_URL) at it.
 */

import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/** A form body as Stripe reads it: `metadata[reservation_id]=7` is `{ metadata: { reservation_id: '7' } }`. */
export type FormBody = { [name: string]: string | FormBody };

export type FakeStripeRequest = { method: string; path: string; idempotencyKey: string | null; body: FormBody };

export type FakeStripeObject = { id: string; object: string } & Record<string, unknown>;

export type FakeStripeOptions = {
  /** Answer 401, as Stripe does, unless a request carries `Authorization: Bearer <secretKey>`. */
  secretKey?: string;
};

export type FakeStripe = {
  port: number;
  /** The `api` option of StripePaymentProvider for this fake. */
  api: { host: string; port: number; protocol: 'http' };
  /** Every request, in order, including the ones answered with an error. */
  requests: FakeStripeRequest[];
  /** What the fake created, by id: each PaymentIntent and refund once, however often it was asked for. */
  objects: Map<string, FakeStripeObject>;
  /** Answer the next `count` requests with a 500, as Stripe on a bad day, or with `error` (a 400 `invalid_request_error`, say). */
  failNext(count: number, error?: FakeStripeError): void;
  close(): Promise<void>;
};

type Answer = { status: number; body: unknown };

/** An error as Stripe answers it: the HTTP status and the `error` object's fields. */
export type FakeStripeError = { status: number; type: string; message: string; code?: string; param?: string };

const stripeError = (status: number, type: string, message: string, extra: Record<string, string> = {}): Answer => ({
  status,
  body: { error: { type, message, ...extra } },
});

export async function startFakeStripe(options: FakeStripeOptions = {}): Promise<FakeStripe> {
  const requests: FakeStripeRequest[] = [];
  const objects = new Map<string, FakeStripeObject>();
  /** Successful answers by Idempotency-Key, with what was asked, as Stripe keeps them. */
  const replays = new Map<string, { asked: string; answer: Answer }>();
  let failures = 0;
  let failure: FakeStripeError | undefined;

  function answer(request: FakeStripeRequest, asked: string, authorization: string | undefined): Answer & { replayed?: boolean } {
    if (failures > 0) {
      failures--;
      if (!failure) return stripeError(500, 'api_error', "Something went wrong on Stripe's end.");
      const { status, type, message, code, param } = failure;
      return stripeError(status, type, message, { ...(code ? { code } : {}), ...(param ? { param } : {}) });
    }
    if (options.secretKey !== undefined && authorization !== `Bearer ${options.secretKey}`) {
      return stripeError(
        401,
        'invalid_request_error',
        `Invalid API Key provided: ${redacted(authorization?.replace(/^Bearer /, '') ?? '')}`,
      );
    }
    if (request.idempotencyKey) {
      const replay = replays.get(request.idempotencyKey);
      if (replay && replay.asked !== asked) {
        return stripeError(
          400,
          'idempotency_error',
          `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${request.idempotencyKey}' if you meant to execute a different request.`,
        );
      }
      if (replay) return { ...replay.answer, replayed: true };
    }
    const fresh = route(request);
    if (request.idempotencyKey && fresh.status < 300) replays.set(request.idempotencyKey, { asked, answer: fresh });
    return fresh;
  }

  function route(request: FakeStripeRequest): Answer {
    if (request.method === 'POST' && request.path === '/v1/payment_intents') return createPaymentIntent(request.body);
    if (request.method === 'POST' && request.path === '/v1/refunds') return createRefund(request.body);
    return stripeError(404, 'invalid_request_error', `Unrecognized request URL (${request.method}: ${request.path}).`);
  }

  function createPaymentIntent(body: FormBody): Answer {
    const amount = Number(body.amount);
    if (body.amount === undefined) return stripeError(400, 'invalid_request_error', 'Missing required param: amount.', { param: 'amount' });
    if (!Number.isInteger(amount) || amount < 1)
      return stripeError(400, 'invalid_request_error', 'Invalid integer: amount.', { param: 'amount' });
    if (typeof body.currency !== 'string' || !/^[a-z]{3}$/.test(body.currency))
      return stripeError(400, 'invalid_request_error', 'Invalid currency.', { param: 'currency' });
    const id = `pi_${token()}`;
    const methods = body.automatic_payment_methods;
    const intent: FakeStripeObject = {
      id,
      object: 'payment_intent',
      amount,
      amount_received: 0,
      currency: body.currency,
      status: 'requires_payment_method',
      client_secret: `${id}_secret_${token()}`,
      description: body.description ?? null,
      receipt_email: body.receipt_email ?? null,
      metadata: typeof body.metadata === 'object' ? body.metadata : {},
      automatic_payment_methods: typeof methods === 'object' ? { enabled: methods.enabled === 'true' } : null,
      last_payment_error: null,
      livemode: false,
      created: Math.floor(Date.now() / 1000),
    };
    objects.set(id, intent);
    return { status: 200, body: intent };
  }

  function createRefund(body: FormBody): Answer {
    const intent = typeof body.payment_intent === 'string' ? objects.get(body.payment_intent) : undefined;
    if (!intent || intent.object !== 'payment_intent') {
      return stripeError(400, 'invalid_request_error', `No such payment_intent: '${String(body.payment_intent ?? '')}'`, {
        code: 'resource_missing',
        param: 'payment_intent',
      });
    }
    const amount = body.amount === undefined ? intent.amount : Number(body.amount);
    if (typeof amount !== 'number' || !Number.isInteger(amount) || amount < 1)
      return stripeError(400, 'invalid_request_error', 'Invalid integer: amount.', { param: 'amount' });
    const refund: FakeStripeObject = {
      id: `re_${token()}`,
      object: 'refund',
      amount,
      currency: intent.currency,
      payment_intent: intent.id,
      status: 'succeeded',
      created: Math.floor(Date.now() / 1000),
    };
    objects.set(refund.id, refund);
    return { status: 200, body: refund };
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const key = req.headers['idempotency-key'];
      const request: FakeStripeRequest = {
        method: req.method ?? 'GET',
        path: new URL(req.url ?? '/', 'http://fake').pathname,
        idempotencyKey: typeof key === 'string' ? key : null,
        body: parseForm(raw),
      };
      requests.push(request);
      const { status, body, replayed } = answer(request, `${request.method} ${request.path} ${raw}`, req.headers.authorization);
      res.writeHead(status, {
        'Content-Type': 'application/json',
        'Request-Id': `req_${token()}`,
        ...(request.idempotencyKey ? { 'Idempotency-Key': request.idempotencyKey } : {}),
        ...(replayed ? { 'Idempotent-Replayed': 'true' } : {}),
      });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    port,
    api: { host: '127.0.0.1', port, protocol: 'http' },
    requests,
    objects,
    failNext(count, error) {
      failures = count;
      failure = error;
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** `a[b][c]=v` pairs as nested objects, the way Stripe reads stripe-node's form bodies. */
function parseForm(raw: string): FormBody {
  const body: FormBody = {};
  for (const [name, value] of new URLSearchParams(raw)) {
    const [head = '', ...rest] = name.split('[');
    const path = [head, ...rest.map((part) => part.replace(/\]$/, ''))];
    if (path.some((key) => key === '__proto__' || key === 'constructor' || key === 'prototype')) continue;
    let node = body;
    for (const key of path.slice(0, -1)) {
      const next = node[key];
      node = typeof next === 'object' ? next : (node[key] = {});
    }
    node[path[path.length - 1]!] = value;
  }
  return body;
}

/** A key as Stripe quotes it back in a 401: its prefix and last four characters only. */
function redacted(key: string): string {
  return key.length > 12 ? `${key.slice(0, 8)}${'*'.repeat(key.length - 12)}${key.slice(-4)}` : '*'.repeat(key.length);
}

function token(): string {
  return randomBytes(12).toString('hex');
}

/** The Stripe-Signature header Stripe would send with `payload`, for a test playing Stripe's webhooks. */
export function stripeSignatureFor(payload: string, secret: string): string {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret });
}
