import type { PlatformDb } from './database';

export type PlatformEventRecord = { siteId: number | null; category: string; url: string | null; errorMessage: string | null; payload: Record<string, unknown> };

/** The platform's event log: remote failures and analytics events the browser reports. */
export async function recordEvent(db: PlatformDb, event: PlatformEventRecord, now = Date.now()) {
  await db
    .insertInto('events')
    .values({ site_id: event.siteId, category: event.category, url: event.url, error_message: event.errorMessage, payload: JSON.stringify(event.payload), created_at: now })
    .execute();
}
