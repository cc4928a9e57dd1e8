import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoDataIfEmpty } from '@dealer/demo/seed-database';
import { migrateToLatest } from '@dealer/db/database';
import { skipPostgres } from '@dealer/testing/postgres';
import { openTestStore, type TestStore } from '@dealer/testing/test-store';
import { carsChangedSince, deleteSessionsEndedBy, insertSession, signInShopper, type ChangedCar } from './account-store';
import { deleteCodesMadeBefore, insertSignInCode, lockConflictRetries, retryingLockConflicts } from './sign-in-code-store';
import { deleteFinishedMailBefore, enqueueShopperMail } from '@dealer/db/mail-outbox-store';

describe.each(['sqlite', 'postgres'] as const)(
  'the garage alert job’s reads and the accounts’ housekeeping in the store, on %s',
  (engine) => {
    if (engine === 'postgres' && skipPostgres) {
      it.skip('needs PostgreSQL (skipped: SKIP_POSTGRES=1)', () => {});
      return;
    }

    let store: TestStore;
    let carIds: number[];
    beforeAll(async () => {
      store = await openTestStore(engine);
      await migrateToLatest(store.db, store.engine);
      await seedDemoDataIfEmpty(store.db);
      carIds = (await store.db.selectFrom('cars').select('id').orderBy('id').limit(5).execute()).map((row) => Number(row.id));
    });
    afterAll(async () => {
      await store?.close();
    });

    it('pages through the cars changed since a time, oldest change first and by id within one time, none twice', async () => {
      const since = Date.now() + 1_000_000_000;
      // Written in an order other than by id; three cars share one time.
      const times = [since + 2, since + 1, since + 2, since + 3, since + 2];
      for (const [index, id] of carIds.entries())
        await store.db.updateTable('cars').set({ updated_at: times[index]! }).where('id', '=', id).execute();
      const pages: ChangedCar[][] = [];
      let after: { updatedAt: number; id: number } | null = null;
      for (;;) {
        const page = await carsChangedSince(store.db, since, after, 2);
        if (page.length === 0) break;
        pages.push(page);
        after = { updatedAt: page.at(-1)!.updatedAt, id: page.at(-1)!.id };
      }
      const [a, b, c, d, e] = carIds as [number, number, number, number, number];
      expect(pages.map((page) => page.map((car) => car.id))).toEqual([[b, a], [c, e], [d]]);
      expect(pages.flat().map((car) => car.updatedAt)).toEqual([since + 1, since + 2, since + 2, since + 2, since + 3]);
      expect(pages.flat().every((car) => car.siteId > 0)).toBe(true);
      expect(await carsChangedSince(store.db, since + 2, null, 10)).toEqual([pages[2]![0]]);
    });

    it('forgets codes made before a time, sessions ended by it and finished mail last touched before it, and nothing else', async () => {
      const siteId = Number((await store.db.selectFrom('sites').select('id').orderBy('id').executeTakeFirstOrThrow()).id);
      const email = `housekeeping.${engine}@example.com`;
      const at = 5_000_000;
      for (const made of [at - 1, at])
        await insertSignInCode(
          store.db,
          { siteId, email, requester: 'r', salt: 's', codeHash: `c${made}`, tokenHash: `t${made}`, expiresAt: made + 1 },
          made,
        );
      const shopper = await signInShopper(store.db, siteId, email, at);
      for (const ends of [at - 1, at, at + 1])
        await insertSession(store.db, { idHash: `session-${engine}-${ends}`, shopperId: shopper.id, siteId, expiresAt: ends }, at - 10);
      for (const status of ['sent', 'dead', 'expired', 'failed', 'pending'] as const) {
        for (const touched of [at - 1, at]) {
          const id = await enqueueShopperMail(store.db, { siteId, email, kind: 'sign-in', subject: status, body: '' }, touched);
          await store.db.updateTable('shopper_mail').set({ status }).where('id', '=', id).execute();
        }
      }

      await deleteCodesMadeBefore(store.db, at);
      await deleteSessionsEndedBy(store.db, at);
      await deleteFinishedMailBefore(store.db, at);

      const codes = await store.db.selectFrom('shopper_sign_in_codes').select('created_at').where('email', '=', email).execute();
      expect(codes.map((row) => Number(row.created_at))).toEqual([at]);
      const sessions = await store.db.selectFrom('shopper_sessions').select('expires_at').where('shopper_id', '=', shopper.id).execute();
      expect(sessions.map((row) => Number(row.expires_at))).toEqual([at + 1]);
      const mail = await store.db
        .selectFrom('shopper_mail')
        .select(['subject', 'updated_at'])
        .where('email', '=', email)
        .orderBy('id')
        .execute();
      expect(mail.map((row) => `${row.subject}@${Number(row.updated_at) - at}`)).toEqual([
        'sent@0',
        'dead@0',
        'expired@0',
        'failed@-1',
        'failed@0',
        'pending@-1',
        'pending@0',
      ]);
    });
  },
);

describe('a transaction PostgreSQL rolled back for another’s locks', () => {
  const failing = (codes: string[]) => {
    let calls = 0;
    const work = async () => {
      const code = codes[calls++];
      if (code !== undefined) throw Object.assign(new Error(`failed with ${code}`), { code });
      return 'done';
    };
    return { work, calls: () => calls };
  };

  it('runs again after a deadlock (40P01) or a serialization failure (40001)', async () => {
    const run = failing(['40P01', '40001']);
    expect(await retryingLockConflicts(run.work)).toBe('done');
    expect(run.calls()).toBe(3);
  });

  it(`gives up after ${lockConflictRetries} runs more, and lets any other error through at once`, async () => {
    const endless = failing(Array<string>(lockConflictRetries + 1).fill('40P01'));
    await expect(retryingLockConflicts(endless.work)).rejects.toThrow('failed with 40P01');
    expect(endless.calls()).toBe(lockConflictRetries + 1);
    const other = failing(['23505']);
    await expect(retryingLockConflicts(other.work)).rejects.toThrow('failed with 23505');
    expect(other.calls()).toBe(1);
  });
});
