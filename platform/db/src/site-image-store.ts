import type { PlatformDb } from './database';
import type { SiteImagesTable } from './schema';

export type SiteImage = Omit<SiteImagesTable, 'bytes'> & { bytes: Buffer };

/** Stores a processed picture under its hash; the same bytes uploaded again are stored once. */
export async function saveSiteImage(db: PlatformDb, image: SiteImage): Promise<void> {
  await db
    .insertInto('site_images')
    .values(image)
    .onConflict((conflict) => conflict.column('hash').doNothing())
    .execute();
}

/** A stored picture by its hash, or null. */
export async function siteImage(db: PlatformDb, hash: string): Promise<SiteImage | null> {
  const row = await db.selectFrom('site_images').selectAll().where('hash', '=', hash).executeTakeFirst();
  return row
    ? { ...row, bytes: Buffer.from(row.bytes), width: Number(row.width), height: Number(row.height), created_at: Number(row.created_at) }
    : null;
}
