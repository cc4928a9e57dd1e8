/** The console API of a site's inventory feed (`/api/console/sites/:site/feed…`), same origin, with the console's cookie. */
import { call } from './stock-api';

export type FeedCounts = { new: number; changed: number; unchanged: number; removed: number; rejected: number };
export type FeedSettings = {
  mapping: Record<string, string> | null;
  url: string | null;
  schedule: 'off' | 'hourly' | 'daily';
  fields: { field: string; label: string; required: boolean }[];
  imports: { id: number; source: string; status: string; created_at: number; finished_at: number | null; counts: FeedCounts | null }[];
};
export type FeedUpload = { id: number; columns: string[]; sample: string[][]; rows: number; mapping: Record<string, string> };
export type PlannedRow = {
  row: number;
  action: 'new' | 'changed' | 'unchanged' | 'removed' | 'rejected';
  stocknum: string;
  name: string;
  reason?: string;
  changes?: string[];
};
export type DryRun = { counts: FeedCounts; rows: PlannedRow[] };
export type ImportState = {
  id: number;
  status: string;
  progress: { done: number; total: number } | null;
  report: { counts?: FeedCounts; photos?: { fetched: number; failed: number }; seconds?: number } | null;
  error: string | null;
};

export const feedApi = (apiBase: string) => ({
  settings: () => call<FeedSettings>(`${apiBase}/feed`),
  saveSettings: (change: Partial<Pick<FeedSettings, 'mapping' | 'url' | 'schedule'>>) =>
    call<FeedSettings>(`${apiBase}/feed/settings`, { method: 'PUT', body: JSON.stringify(change) }),
  upload: (file: File) => call<FeedUpload>(`${apiBase}/feed/imports`, { method: 'POST', body: file, contentType: 'text/csv' }),
  fetchUrl: (url: string) => call<FeedUpload>(`${apiBase}/feed/imports`, { method: 'POST', body: JSON.stringify({ url }) }),
  dryRun: (id: number, mapping: Record<string, string>) =>
    call<DryRun>(`${apiBase}/feed/imports/${id}/dry-run`, { method: 'POST', body: JSON.stringify({ mapping }) }),
  apply: (id: number) => call<{ id: number; status: string }>(`${apiBase}/feed/imports/${id}/apply`, { method: 'POST', body: '{}' }),
  state: (id: number) => call<ImportState>(`${apiBase}/feed/imports/${id}`),
});
export type FeedApi = ReturnType<typeof feedApi>;
