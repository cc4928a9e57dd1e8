/** The console API the leads inbox reads and writes (`/api/console/sites/:site/leads…`), same origin, with the console's cookie. */
export const leadStatuses = ['new', 'contacted', 'appointment', 'sold', 'lost'] as const;
export type LeadStatus = (typeof leadStatuses)[number];

export type InboxLead = {
  id: number;
  category: string;
  created_at: number;
  payload: Record<string, unknown>;
  dealer_status: LeadStatus;
  assignee_id: number | null;
  delivery: { state: string };
};

export type LeadDetail = {
  lead: InboxLead;
  jobs: { id: number; target: string; status: string; attempts: number; last_error: string | null }[];
  log: { id: number; job_id: number; outcome: string; detail: string | null; created_at: number }[];
  files: { id: number; name: string; size: number; type: string }[];
  notes: { id: number; author: string; body: string; created_at: number }[];
  assignees: { id: number; email: string; name: string | null }[];
};

export type InboxFilter = { status?: string; form?: string; location?: string; assignee?: string; from?: string; to?: string; q?: string };

/** What the filters offer: the forms the site's leads came from, its locations, the people leads are assigned to. */
export type InboxChoices = {
  forms: string[];
  locations: { id: number; name: string }[];
  assignees: { id: number; email: string; name: string | null }[];
};

export class ConsoleApiError extends Error {
  constructor(
    message: string,
    readonly fields: Record<string, string> = {},
  ) {
    super(message);
  }
}

async function call<T>(url: string, init?: RequestInit): Promise<T> {
  const res = await fetch(url, {
    credentials: 'same-origin',
    ...init,
    headers: { accept: 'application/json', ...(init?.body ? { 'content-type': 'application/json' } : {}) },
  });
  const body = (await res.json().catch(() => ({}))) as { message?: string; fields?: Record<string, string> };
  if (!res.ok) throw new ConsoleApiError(body.message ?? `The console answered ${res.status}.`, body.fields ?? {});
  return body as T;
}

export const filterQuery = (filter: InboxFilter) => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) if (value) params.set(key, value);
  return params.toString();
};

export const leadsApi = (apiBase: string) => ({
  base: apiBase,
  list: (filter: InboxFilter, cursor: string | null) =>
    call<{ leads: InboxLead[]; next_cursor: string | null }>(
      `${apiBase}/leads?${filterQuery(filter)}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    ),
  choices: () => call<InboxChoices>(`${apiBase}/leads/choices`),
  detail: (id: number) => call<LeadDetail>(`${apiBase}/leads/${id}`),
  change: (id: number, change: { status?: LeadStatus; assignee_id?: number | null; note?: string }) =>
    call<{ status: LeadStatus; assignee_id: number | null }>(`${apiBase}/leads/${id}/workflow`, {
      method: 'POST',
      body: JSON.stringify(change),
    }),
  retry: (id: number) => call<{ retried: number }>(`${apiBase}/leads/${id}/retry`, { method: 'POST', body: '{}' }),
  csvUrl: (filter: InboxFilter) => `${apiBase}/leads.csv?${filterQuery(filter)}`,
});

/** The shopper's name as the forms send it ('name', first and last, or the e-mail). */
export function shopperName(payload: Record<string, unknown>): string {
  const text = (...keys: string[]) =>
    keys.map((key) => (typeof payload[key] === 'string' ? (payload[key] as string).trim() : '')).find(Boolean) ?? '';
  const full = [text('name', 'Name', 'first_name', 'First Name'), text('last_name', 'Last Name')].filter(Boolean).join(' ');
  return full || text('email', 'Email') || 'No name given';
}
