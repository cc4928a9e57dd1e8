import { submitFailureText } from './submit-lead';

export type LeadSaveResult =
  { leadId: number; updateToken: string | null } | { leadId: null; message: string; fields?: Record<string, string> };

async function read(response: Response): Promise<LeadSaveResult> {
  const body = (await response.json().catch(() => ({}))) as {
    id?: number;
    update_token?: string;
    message?: string;
    fields?: Record<string, string>;
  };
  if (response.ok && typeof body.id === 'number') return { leadId: body.id, updateToken: body.update_token ?? null };
  return { leadId: null, message: body.message ?? submitFailureText, fields: body.fields };
}

/**
 * Saves a lead: created without an id, updated with one (SPEC §4 lead persistence). An update
 * carries the token the create returned. Files go as multipart to /leads/with-files (no JSON
 * content type, SPEC §7). One idempotency key per attempt makes a retried create harmless.
 */
export async function saveLead(input: {
  lead: Record<string, unknown>;
  leadId?: number | null;
  updateToken?: string | null;
  files?: File[];
  idempotencyKey: string;
  /** SPEC §7: `/api`, or `/mock` when the site's config says the platform runs in mock mode. */
  apiPrefix?: '/api' | '/mock';
}): Promise<LeadSaveResult> {
  const apiBase = () => input.apiPrefix ?? '/api';
  try {
    if (input.leadId) {
      const response = await fetch(`${apiBase()}/leads/${input.leadId}`, {
        method: 'PUT',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json',
          ...(input.updateToken ? { 'X-Lead-Update-Token': input.updateToken } : {}),
        },
        body: JSON.stringify({ lead: { ...input.lead, lead_id: input.leadId }, update_token: input.updateToken }),
      });
      return await read(response);
    }
    if (input.files?.length) {
      const form = new FormData();
      form.set('lead', JSON.stringify({ ...input.lead, has_files: true }));
      for (const file of input.files) form.append('files', file, file.name);
      const response = await fetch(`${apiBase()}/leads/with-files`, {
        method: 'POST',
        headers: { Accept: 'application/json', 'Idempotency-Key': input.idempotencyKey },
        body: form,
      });
      return await read(response);
    }
    const response = await fetch(`${apiBase()}/leads`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'Idempotency-Key': input.idempotencyKey },
      body: JSON.stringify({ lead: input.lead }),
    });
    return await read(response);
  } catch (error) {
    // SPEC §8: a thrown exception gives a null lead id and its message as the error.
    return { leadId: null, message: error instanceof Error ? error.message : submitFailureText };
  }
}
