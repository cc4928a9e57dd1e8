import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listSiteCars } from '@dealer/db/car-store';
import { findSiteIdBySlug } from '@dealer/db/site-store';
import { canReserve } from '@dealer/rules/reserve';
import { depositFor } from '@dealer/rules/reservation';
import { consoleRequest, consoleSignIn } from '../../testing/console-requests';
import { createTestPlatform, siteRequest, type TestPlatform } from '../../testing/test-platform';

const slug = 'metro-motor-group';

describe('the console’s chat inbox and reservations (staff of a site)', () => {
  let platform: TestPlatform;
  let staff: string;
  beforeAll(async () => {
    platform = await createTestPlatform();
    staff = await consoleSignIn(platform.app, platform.ctx.db, `staff@${slug}.localhost`);
  }, 60_000);
  afterAll(async () => platform?.close());

  const get = (url: string) => consoleRequest(platform.app, 'GET', `/api/console/sites/${slug}${url}`, { cookie: staff });
  const post = (url: string, payload: object = {}) =>
    consoleRequest(platform.app, 'POST', `/api/console/sites/${slug}${url}`, { cookie: staff, payload });

  it('lists a shopper’s chat as awaiting a reply; the reply, signed with the staff member’s name, reaches the shopper’s chat', async () => {
    const started = await siteRequest(platform.app, slug, 'POST', '/api/chat/threads', {
      payload: JSON.stringify({
        name: 'Jane Citizen',
        phone: '0411 222 333',
        email: 'jane@example.com',
        message: 'Is the Corolla here?',
        client_message_id: 'c-1',
      }),
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.9.9.9' },
    });
    expect(started.statusCode, started.body).toBe(201);
    const thread = started.json<{ thread_id: number; token: string }>();
    const waiting = (await get('/chats?awaiting_reply=true')).json<{
      threads: { id: number; lead_id: number; awaiting_reply: boolean }[];
    }>().threads;
    expect(waiting).toContainEqual(expect.objectContaining({ id: thread.thread_id, awaiting_reply: true }));

    const sent = await post(`/chats/${thread.thread_id}/replies`, { body: 'Yes, come by on Saturday.' });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json()).toMatchObject({ message: { author: 'dealer', author_name: 'Stacey Staff', body: 'Yes, come by on Saturday.' } });
    const polled = await siteRequest(platform.app, slug, 'GET', `/api/chat/threads/${thread.thread_id}/messages`, {
      headers: { 'x-chat-token': thread.token, 'content-type': 'application/json' },
    });
    expect(polled.json<{ messages: { body: string }[] }>().messages.map((m) => m.body)).toContain('Yes, come by on Saturday.');
    expect((await get('/chats?awaiting_reply=true')).json<{ threads: { id: number }[] }>().threads.map((t) => t.id)).not.toContain(
      thread.thread_id,
    );
    // An empty reply is refused beside the box.
    const empty = await post(`/chats/${thread.thread_id}/replies`, { body: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(Object.keys(empty.json<{ fields: object }>().fields)).toEqual(['body']);
  });

  it('lists a paid reservation and releases it: refunded, the car free, the release in the audit log', async () => {
    const siteId = (await findSiteIdBySlug(platform.ctx.db, slug))!;
    const car = (await listSiteCars(platform.ctx.db, siteId)).find(
      (one) => one.show_on_dealer_website && canReserve(one, { siteSupportsOnlinePayment: true }).ok && depositFor(one, 'en-AU'),
    )!;
    const held = await siteRequest(platform.app, slug, 'POST', `/api/cars/${car.slug}/reservations`, {
      payload: { first_name: 'Ana', last_name: 'Shopper', email: 'ana@example.com', phone: '0411 123 333', terms_accepted: true },
      headers: { 'x-forwarded-for': '203.0.113.7' },
    });
    expect(held.statusCode, held.body).toBe(201);
    const { reservation, token } = held.json<{ reservation: { id: number }; token: string }>();
    const paid = await siteRequest(platform.app, slug, 'POST', `/api/reservations/${reservation.id}/test-payment`, {
      payload: { card_number: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' },
      headers: { 'x-reservation-token': token },
    });
    expect(paid.statusCode, paid.body).toBe(200);
    const listed = (await get('/reservations')).json<{ reservations: { id: number; state: string; lead_id: number | null }[] }>()
      .reservations;
    expect(listed.find((one) => one.id === reservation.id)).toMatchObject({ state: 'reserved', lead_id: expect.any(Number) });

    const released = await post(`/reservations/${reservation.id}/release`);
    expect(released.statusCode, released.body).toBe(200);
    expect(released.json()).toMatchObject({ reservation: { id: reservation.id, state: 'released' } });
    const admin = await consoleSignIn(platform.app, platform.ctx.db, `site-admin@${slug}.localhost`);
    const audit = (await consoleRequest(platform.app, 'GET', `/api/console/sites/${slug}/audit`, { cookie: admin })).json<{
      entries: { action: string; target: string; after: unknown }[];
    }>().entries;
    expect(audit[0]).toMatchObject({
      action: 'reservations.release',
      target: `reservation ${reservation.id}`,
      after: { state: 'released' },
    });
  });
});
