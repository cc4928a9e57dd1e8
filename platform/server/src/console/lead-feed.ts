/**
 * New leads as they arrive, for the dealer console's open inboxes (server-sent events). One poll of
 * the store per server process every `pollMs` while anyone listens, whatever the number of open
 * inboxes: leads with an id past the last one seen, handed to the listeners of their site. Every
 * server of the platform reads the same store, so a lead taken by one server reaches an inbox open
 * on another within a poll.
 *
 * A hint, not the record: an inbox that hears of a lead reloads its first page, so a lead whose id
 * committed late (PostgreSQL hands ids out before commit) shows with the next one or on reload.
 */
import type { PlatformDb } from '@dealer/db/database';

export type FedLead = { id: number; category: string; created_at: number };
type Listener = (lead: FedLead) => void;

export class LeadFeed {
  private readonly listeners = new Map<number, Set<Listener>>();
  private lastId: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private polling = false;

  constructor(
    private readonly db: PlatformDb,
    private readonly pollMs = 500,
    private readonly log: { error(obj: object, msg: string): void } = { error: () => undefined },
  ) {}

  /** Listens for the site's new leads; returns the function that stops listening. */
  subscribe(siteId: number, listener: Listener): () => void {
    const set = this.listeners.get(siteId) ?? new Set();
    set.add(listener);
    this.listeners.set(siteId, set);
    if (!this.timer) {
      this.timer = setInterval(() => void this.poll(), this.pollMs);
      this.timer.unref();
      // The first look only notes where the store stands: what arrives after it is new.
      void this.poll();
    }
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(siteId);
      if (this.listeners.size === 0) this.stop();
    };
  }

  get listening(): number {
    let count = 0;
    for (const set of this.listeners.values()) count += set.size;
    return count;
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.lastId = null;
  }

  /** One look at the store (also called by tests). */
  async poll() {
    if (this.polling) return;
    this.polling = true;
    try {
      if (this.lastId === null) {
        const row = await this.db
          .selectFrom('leads')
          .select((eb) => eb.fn.max('id').as('max'))
          .executeTakeFirst();
        this.lastId = Number(row?.max ?? 0);
        return;
      }
      const rows = await this.db
        .selectFrom('leads')
        .select(['id', 'site_id', 'category', 'created_at', 'mock'])
        .where('id', '>', this.lastId)
        .orderBy('id')
        .limit(500)
        .execute();
      for (const row of rows) {
        this.lastId = Math.max(this.lastId, Number(row.id));
        if (Number(row.mock) === 1) continue;
        const lead = { id: Number(row.id), category: row.category, created_at: Number(row.created_at) };
        for (const listener of this.listeners.get(Number(row.site_id)) ?? []) listener(lead);
      }
    } catch (error) {
      this.log.error({ err: error }, 'console lead feed: reading new leads failed');
    } finally {
      this.polling = false;
    }
  }
}
