import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlatformDb } from './database';
import * as content from './content-store';
import { siteContentStamp } from './site-store';
import { openMigratedStore } from '@dealer/testing/migrated-store';
import { skipPostgres } from '@dealer/testing/postgres';

const dealer = 7;
const page = (title: string) => ({ title, blocks: [], seo: {} });
const offer = (title: string, expires_at: number) => ({ ...page(title), summary: '', car_ids: [], expires_at });

describe.each(['sqlite', 'postgres'] as const)('a site’s pages, posts, offers and jobs on %s', (engine) => {
  if (engine === 'postgres' && skipPostgres) {
    it.skip('needs PostgreSQL (skipped: SKIP_POSTGRES=1)', () => {});
    return;
  }

  let store: { db: PlatformDb; close(): Promise<void> };
  beforeAll(async () => {
    store = await openMigratedStore(engine);
    await store.db
      .insertInto('sites')
      .values([1, 2, 3, 4].map((id) => ({ id, slug: `site-${id}`, domain_name: null, config: '{}', updated_at: 0 })))
      .execute();
  });
  afterAll(async () => store?.close());

  const create = async (siteId: number, kind: 'page' | 'post' | 'offer' | 'job', slug: string, draft: unknown, now = 1_000) => {
    const created = await content.createContent(store.db, { siteId, kind, slug, draft, userId: dealer, now });
    if (!('id' in created)) throw new Error(`${slug} clashed`);
    return created.id;
  };
  const publish = (siteId: number, id: number, now = 2_000) =>
    content.publishContent(store.db, { engine, siteId, id, userId: dealer, now });

  it('keeps a draft from shoppers until it is published; publishing puts it on the site and clears the draft', async () => {
    const id = await create(1, 'page', 'about-us', page('About us'));
    expect(await content.findContent(store.db, 1, 'page', 'about-us', { drafts: false })).toBeNull();
    expect(await content.findContent(store.db, 1, 'page', 'about-us', { drafts: true })).toMatchObject({
      id,
      version: page('About us'),
      published_at: null,
    });

    expect(await publish(1, id, 2_000)).toBe('ok');
    expect(await content.findContent(store.db, 1, 'page', 'about-us', { drafts: false })).toEqual({
      id,
      kind: 'page',
      slug: 'about-us',
      version: page('About us'),
      published_at: 2_000,
      updated_at: 2_000,
    });
    expect(await content.contentById(store.db, 1, id)).toMatchObject({ draft: null, published: page('About us'), updated_by: dealer });

    // Changes wait as a draft; the site shows the published words, the preview the new ones.
    await content.changeContentDraft(store.db, { siteId: 1, id, draft: page('About the family'), userId: dealer, now: 3_000 });
    expect((await content.findContent(store.db, 1, 'page', 'about-us', { drafts: false }))!.version).toEqual(page('About us'));
    expect((await content.findContent(store.db, 1, 'page', 'about-us', { drafts: true }))!.version).toEqual(page('About the family'));
    // Publishing again keeps the first publish date.
    await publish(1, id, 4_000);
    expect(await content.findContent(store.db, 1, 'page', 'about-us', { drafts: false })).toMatchObject({
      version: page('About the family'),
      published_at: 2_000,
    });
    expect(await content.findContent(store.db, 2, 'page', 'about-us', { drafts: true })).toBeNull();
  });

  it('says what publishing did: nothing for no such page, nothing to publish for an empty one', async () => {
    expect(await publish(1, 999_999)).toBe('missing');
    const id = await create(1, 'page', 'empty', page('Empty'));
    expect(await publish(2, id)).toBe('missing');
    await store.db.updateTable('site_content').set({ draft: null }).where('id', '=', id).execute();
    expect(await publish(1, id)).toBe('nothing');
  });

  it('takes a page off the site on unpublish and keeps its words as the draft', async () => {
    const id = await create(1, 'page', 'finance', page('Finance'));
    await publish(1, id);
    expect(await content.unpublishContent(store.db, { siteId: 1, id, userId: dealer, now: 3_000 })).toBe('ok');
    expect(await content.findContent(store.db, 1, 'page', 'finance', { drafts: false })).toBeNull();
    expect(await content.contentById(store.db, 1, id)).toMatchObject({ draft: page('Finance'), published: null, published_at: 2_000 });
    expect(await content.unpublishContent(store.db, { siteId: 1, id, userId: dealer, now: 3_000 })).toBe('nothing');

    // A newer draft is what the dealer keeps, not the words that were on the site.
    await publish(1, id, 4_000);
    await content.changeContentDraft(store.db, { siteId: 1, id, draft: page('Car finance'), userId: dealer, now: 5_000 });
    await content.unpublishContent(store.db, { siteId: 1, id, userId: dealer, now: 6_000 });
    expect(await content.contentById(store.db, 1, id)).toMatchObject({ draft: page('Car finance'), published: null });
  });

  it('moves the site’s stamp on publish, unpublish, delete, seed and a published page’s new address, not on a draft save', async () => {
    const stamp = () => siteContentStamp(store.db, 2);
    const id = await create(2, 'page', 'service', page('Service'));
    const moved = async (change: () => Promise<unknown>) => {
      const before = await stamp();
      await change();
      return (await stamp()) !== before;
    };
    expect(await moved(() => create(2, 'page', 'parts', page('Parts')))).toBe(false);
    expect(
      await moved(() => content.changeContentDraft(store.db, { siteId: 2, id, draft: page('Servicing'), userId: dealer, now: 9 })),
    ).toBe(false);
    // The same millisecond twice (or a clock behind): the stamp still moves.
    expect(await moved(() => publish(2, id, 5))).toBe(true);
    expect(await moved(() => publish(2, id, 5))).toBe(true);
    expect(
      await moved(() =>
        content.changeContentDraft(store.db, { siteId: 2, id, draft: page('Servicing'), slug: 'service', userId: dealer, now: 10 }),
      ),
    ).toBe(false);
    expect(
      await moved(() =>
        content.changeContentDraft(store.db, { siteId: 2, id, draft: page('Servicing'), slug: 'servicing', userId: dealer, now: 11 }),
      ),
    ).toBe(true);
    expect(await moved(() => content.unpublishContent(store.db, { siteId: 2, id, userId: dealer, now: 12 }))).toBe(true);
    expect(await moved(() => content.deleteContent(store.db, { siteId: 2, id, now: 13 }))).toBe(true);
    expect(await content.deleteContent(store.db, { siteId: 2, id, now: 14 })).toBe('missing');
    expect(
      await moved(() =>
        content.seedSiteContent(store.db, 2, [{ kind: 'post', slug: 'welcome', version: page('Welcome'), published_at: 1 }], 15),
      ),
    ).toBe(true);
  });

  it('takes an offer off the list once it has ended, and a job once it has closed', async () => {
    const ending = await create(3, 'offer', 'eofy', offer('EOFY sale', 10_000));
    const lasting = await create(3, 'offer', 'free-service', offer('Free first service', 90_000));
    await publish(3, ending, 1_000);
    await publish(3, lasting, 2_000);
    const slugs = async (kind: 'offer' | 'job', now: number) =>
      (await content.listPublishedContent(store.db, 3, kind, { offset: 0, limit: 10, now })).items.map((item) => item.slug);
    expect(await slugs('offer', 9_999)).toEqual(['free-service', 'eofy']);
    expect(await slugs('offer', 10_000)).toEqual(['free-service']);
    expect((await content.contentById(store.db, 3, ending))!.expires_at).toBe(10_000);

    const job = await create(3, 'job', 'apprentice', { title: 'Apprentice', employment_type: 'Apprenticeship', closes_at: 20_000 });
    const open = await create(3, 'job', 'detailer', { title: 'Detailer', employment_type: 'Casual' });
    await publish(3, job, 3_000);
    await publish(3, open, 3_000);
    expect(await slugs('job', 19_999)).toEqual(['detailer', 'apprentice']);
    expect(await slugs('job', 20_000)).toEqual(['detailer']);
  });

  it('pages news posts newest first, with how many there are in all', async () => {
    for (let day = 1; day <= 5; day++) await publish(4, await create(4, 'post', `news-${day}`, page(`News ${day}`)), day * 86_400_000);
    // A draft is in the dealer's preview only, dated as if published now.
    await create(4, 'post', 'coming-soon', page('Coming soon'));
    const list = (offset: number, drafts = false) =>
      content.listPublishedContent(store.db, 4, 'post', { offset, limit: 2, now: 10 * 86_400_000, drafts });
    const first = await list(0);
    expect(first.total).toBe(5);
    expect(first.items.map((item) => item.slug)).toEqual(['news-5', 'news-4']);
    expect(first.items[0]).toMatchObject({ kind: 'post', version: page('News 5'), published_at: 5 * 86_400_000 });
    expect((await list(4)).items.map((item) => item.slug)).toEqual(['news-1']);
    const preview = await list(0, true);
    expect(preview.total).toBe(6);
    expect(preview.items.map((item) => item.slug)).toEqual(['coming-soon', 'news-5']);
  });

  it('refuses an address the site has that kind of content at already', async () => {
    await create(1, 'post', 'new-showroom', page('New showroom'));
    const other = await create(1, 'post', 'open-day', page('Open day'));
    expect(
      await content.createContent(store.db, { siteId: 1, kind: 'post', slug: 'new-showroom', draft: page('x'), userId: dealer, now: 1 }),
    ).toEqual({ clash: true });
    expect(
      await content.changeContentDraft(store.db, { siteId: 1, id: other, draft: page('x'), slug: 'new-showroom', userId: dealer, now: 1 }),
    ).toBe('clash');
    expect(await content.changeContentDraft(store.db, { siteId: 1, id: 999_999, draft: page('x'), userId: dealer, now: 1 })).toBe(
      'missing',
    );
    // The same address is free for another kind, or another site.
    await create(1, 'page', 'new-showroom', page('New showroom'));
    await create(2, 'post', 'new-showroom', page('New showroom'));
  });

  it('lists a site’s content for the console by kind and address, with each one’s title and state', async () => {
    const published = await create(3, 'page', 'contact', page('Contact'));
    await publish(3, published);
    const changed = await create(3, 'page', 'about', page('About'));
    await publish(3, changed);
    await content.changeContentDraft(store.db, { siteId: 3, id: changed, draft: page('About us'), userId: dealer, now: 3_000 });
    await create(3, 'page', 'careers', page('Careers'));
    expect((await content.listContentForConsole(store.db, 3, 'page')).map(({ slug, title, state }) => ({ slug, title, state }))).toEqual([
      { slug: 'about', title: 'About us', state: 'changed' },
      { slug: 'careers', title: 'Careers', state: 'draft' },
      { slug: 'contact', title: 'Contact', state: 'published' },
    ]);
    expect((await content.listContentForConsole(store.db, 3)).map((row) => row.kind)).toEqual([
      'job',
      'job',
      'offer',
      'offer',
      'page',
      'page',
      'page',
    ]);
    expect(await content.contentById(store.db, 3, changed)).toMatchObject({ draft: page('About us'), published: page('About') });
    expect(await content.contentById(store.db, 1, changed)).toBeNull();
  });

  it('seeds a site’s content in one go, leaving what the site has already', async () => {
    const siteId = 1;
    const items = Array.from({ length: 1_400 }, (_, i) => ({
      kind: 'post' as const,
      slug: `seeded-${i}`,
      version: page(`Seeded ${i}`),
      published_at: i,
    }));
    expect(await content.seedSiteContent(store.db, siteId, items, 1)).toBe(1_400);
    expect(await content.seedSiteContent(store.db, siteId, [...items.slice(0, 2), { ...items[0]!, slug: 'one-more' }], 2)).toBe(1);
    expect(await content.siteHasContent(store.db, siteId)).toBe(true);
    const ended = await content.seedSiteContent(
      store.db,
      siteId,
      [{ kind: 'offer', slug: 'old', version: offer('Old', 5), published_at: 1 }],
      3,
    );
    expect(ended).toBe(1);
    expect((await content.listPublishedContent(store.db, siteId, 'offer', { offset: 0, limit: 5, now: 6 })).total).toBe(0);
  });

  it('loses neither the published words nor the new draft when publish and a draft save race', async () => {
    for (let round = 0; round < 25; round++) {
      const id = await create(2, 'page', `race-${round}`, page('First words'));
      await Promise.all([
        publish(2, id),
        content.changeContentDraft(store.db, { siteId: 2, id, draft: page('Second words'), userId: dealer, now: 2_000 }),
      ]);
      const row = await content.contentById(store.db, 2, id);
      // Saved first: the new words went on the site. Published first: the old ones did, the new ones wait as the draft.
      expect([
        { published: page('Second words'), draft: null },
        { published: page('First words'), draft: page('Second words') },
      ]).toContainEqual({ published: row!.published, draft: row!.draft });
    }
  });
});

describe('a site without content', () => {
  it('has no content, until some is seeded', async () => {
    const store = await openMigratedStore('sqlite');
    try {
      await store.db.insertInto('sites').values({ id: 9, slug: 'empty', domain_name: null, config: '{}', updated_at: 0 }).execute();
      expect(await content.siteHasContent(store.db, 9)).toBe(false);
      expect(await siteContentStamp(store.db, 9)).toBe('0.0.0.0');
    } finally {
      await store.close();
    }
  });
});
