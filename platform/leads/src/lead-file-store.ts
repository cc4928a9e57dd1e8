/**
 * A lead's files as the outbox worker and the signed download route read them: many leads' files
 * in one query, one file by id, and where a stored file is on disk.
 */
import { resolve, sep } from 'node:path';
import type { PlatformDb } from '@dealer/db/database';
import type { StoredLeadFile } from '@dealer/db/lead-store';
import { uploadsRoot } from './uploads';

const fileColumns = ['id', 'lead_id', 'site_id', 'path', 'content_type', 'size', 'original_name', 'created_at'] as const;

type FileRow = {
  id: number;
  lead_id: number;
  site_id: number;
  path: string;
  content_type: string;
  size: number;
  original_name: string;
  created_at: number;
};
const toFile = (row: FileRow): StoredLeadFile & { site_id: number } => ({
  ...row,
  id: Number(row.id),
  lead_id: Number(row.lead_id),
  site_id: Number(row.site_id),
  size: Number(row.size),
  created_at: Number(row.created_at),
});

/** The files of each of the leads, by lead id, in upload order (a lead without files is absent). */
export async function listFilesOfLeads(db: PlatformDb, leadIds: readonly number[]): Promise<Map<number, StoredLeadFile[]>> {
  const byLead = new Map<number, StoredLeadFile[]>();
  if (leadIds.length === 0) return byLead;
  const rows = await db
    .selectFrom('lead_files')
    .select(fileColumns)
    .where('lead_id', 'in', leadIds)
    .orderBy('lead_id')
    .orderBy('id')
    .execute();
  for (const row of rows) {
    const file = toFile(row);
    const files = byLead.get(file.lead_id) ?? [];
    files.push(file);
    byLead.set(file.lead_id, files);
  }
  return byLead;
}

export async function findLeadFile(db: PlatformDb, fileId: number): Promise<(StoredLeadFile & { site_id: number }) | null> {
  const row = await db.selectFrom('lead_files').select(fileColumns).where('id', '=', fileId).executeTakeFirst();
  return row ? toFile(row) : null;
}

/** Where a stored file is, or null when its recorded path would lead outside the uploads folder. */
export function storedFilePath(dataDir: string, relativePath: string): string | null {
  const root = resolve(uploadsRoot(dataDir));
  const absolute = resolve(root, relativePath);
  return absolute.startsWith(root + sep) ? absolute : null;
}
