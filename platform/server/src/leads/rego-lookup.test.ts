import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { regoLookupMessages } from '@dealer/rules/rego';
import { createTestPlatform, type TestPlatform } from '../testing/test-platform';
import { demoRegister, httpRegister, lookupRego } from '@dealer/leads/rego-lookup';

describe('looking up a trade-in by its rego', () => {
  it('finds a documented test plate in the demo register, and nothing else', async () => {
    const found = await lookupRego(demoRegister, 'en-AU', { rego: 'demo 123', regoState: 'vic' });
    expect(found).toEqual({
      status: 200,
      body: { found: true, vehicle: { make: 'Mazda', model: 'CX-5', year: '2021', badge: 'Maxx Sport', body: 'SUV', colour: 'Soul Red' } },
    });
    // The VIN the register knows is not handed to whoever asked about the plate.
    expect(JSON.stringify(found)).not.toContain('JM0KF4W7A00123456');
    expect(await lookupRego(demoRegister, 'en-AU', { rego: 'DEMO123', regoState: 'NSW' })).toEqual({
      status: 200,
      body: { found: false, message: regoLookupMessages.notFound },
    });
    expect(await lookupRego(demoRegister, 'en-NZ', { rego: 'KIWI01' })).toMatchObject({
      status: 200,
      body: { found: true, vehicle: { make: 'Suzuki' } },
    });
  });

  it('says which field is wrong, in the form’s words', async () => {
    expect(await lookupRego(demoRegister, 'en-AU', { rego: '', regoState: '' })).toEqual({
      status: 400,
      body: {
        message: 'Please check the highlighted fields.',
        fields: { rego: regoLookupMessages.regoMissing, regoState: regoLookupMessages.stateMissing },
      },
    });
    expect(await lookupRego(demoRegister, 'en-AU', { rego: 'TOO-LONG-1234', regoState: 'NSW' })).toMatchObject({
      status: 400,
      body: { fields: { rego: 'Please enter a registration of up to 9 letters and numbers.' } },
    });
    expect(await lookupRego(demoRegister, 'en-US', { rego: 'TEST123', regoState: 'NSW' })).toMatchObject({
      status: 400,
      body: { fields: { regoState: regoLookupMessages.stateMissing } },
    });
    expect(await lookupRego(demoRegister, 'en-AU', 'not an object')).toMatchObject({ status: 400 });
  });

  describe('through a register’s HTTP API', () => {
    let server: Server;
    let url: string;
    const seen: { auth?: string; body: unknown }[] = [];
    beforeAll(async () => {
      server = createServer((req, res) => {
        let raw = '';
        req.on('data', (chunk) => (raw += chunk));
        req.on('end', () => {
          const body = JSON.parse(raw) as { rego: string };
          seen.push({ auth: req.headers.authorization, body });
          const send = (status: number, value: unknown) =>
            res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
          if (body.rego === 'FOUND1') return send(200, { make: 'Kia', model: 'Sportage', year: 2022, badge: 'SX', vin: null });
          if (body.rego === 'ODD1') return send(200, { make: 'Kia' });
          if (body.rego === 'DOWN1') return send(503, { error: 'maintenance' });
          if (body.rego === 'SLOW1') return setTimeout(() => send(200, { make: 'Kia', model: 'Rio', year: '2015' }), 500);
          return send(404, { error: 'no such plate' });
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/lookup`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('sends the plate, state and country with the server’s key, and reads the car', async () => {
      const register = httpRegister(url, 'secret-register-key');
      expect(await lookupRego(register, 'en-AU', { rego: 'found1', regoState: 'QLD' })).toEqual({
        status: 200,
        body: { found: true, vehicle: { make: 'Kia', model: 'Sportage', year: '2022', badge: 'SX' } },
      });
      expect(seen.at(-1)).toEqual({ auth: 'Bearer secret-register-key', body: { rego: 'FOUND1', state: 'QLD', country: 'AU' } });
      expect(await lookupRego(register, 'en-AU', { rego: 'NOPE1', regoState: 'QLD' })).toMatchObject({
        status: 200,
        body: { found: false },
      });
    });

    it('answers 502 with a message that lets the shopper carry on when the register fails, answers oddly or too slowly', async () => {
      const errors: unknown[] = [];
      const register = httpRegister(url, null, 200);
      for (const rego of ['DOWN1', 'ODD1', 'SLOW1']) {
        expect(await lookupRego(register, 'en-AU', { rego, regoState: 'NSW' }, (error) => errors.push(error))).toEqual({
          status: 502,
          body: { message: regoLookupMessages.unavailable },
        });
      }
      expect(errors).toHaveLength(3);
    });
  });
});

describe('POST /api/rego-lookup', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await createTestPlatform({ engine: 'sqlite' });
  });
  afterAll(async () => {
    await platform?.close();
  });
  const lookup = (host: string, body: unknown) =>
    platform.app.inject({ method: 'POST', url: '/api/rego-lookup', headers: { host: `${host}.localhost:3000` }, payload: body as string });

  it('answers for the site’s country: an Australian plate with its state, a New Zealand plate without', async () => {
    const au = await lookup('metro-motor-group', { rego: 'TEST01', regoState: 'NSW' });
    expect(au.statusCode).toBe(200);
    expect(au.json()).toMatchObject({ found: true, vehicle: { make: 'Toyota', model: 'Corolla', year: '2019' } });
    const nzSite = (await platform.ctx.db.selectFrom('sites').select(['slug', 'config']).execute()).find(
      (row) => (JSON.parse(row.config) as { locale: string }).locale === 'en-NZ',
    )!;
    expect((await lookup(nzSite.slug, { rego: 'KIWI01' })).json()).toMatchObject({ found: true, vehicle: { make: 'Suzuki' } });
  });

  it('refuses a bad plate with the field named, and an unknown host', async () => {
    const bad = await lookup('metro-motor-group', { rego: '!!', regoState: 'NSW' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ fields: { rego: 'Please enter a registration of up to 9 letters and numbers.' } });
    expect((await lookup('no-such-dealer', { rego: 'TEST01', regoState: 'NSW' })).statusCode).toBe(404);
  });
});
