import type { LeadInput } from '@dealer/contracts/lead';

export type LeadSubmitResult = { leadId: number } | { leadId: null; message: string; fields?: Record<string, string> };

/** SPEC §8: with no error text from the server, this is what the shopper is told. */
export const submitFailureText = 'An error occurred when submitting this form';

/**
 * POST /api/leads with `{ lead }`. The idempotency key is fixed for one attempt of one form,
 * so a retried request after a dropped connection cannot create a second lead.
 */
export async function submitLead(lead: LeadInput, idempotencyKey: string): Promise<LeadSubmitResult> {
  try {
    const response = await fetch('/api/leads', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'Idempotency-Key': idempotencyKey },
      body: JSON.stringify({ lead }),
    });
    const body = (await response.json().catch(() => ({}))) as { id?: number; message?: string; fields?: Record<string, string> };
    if (response.ok && typeof body.id === 'number') return { leadId: body.id };
    return { leadId: null, message: body.message ?? submitFailureText, fields: body.fields };
  } catch (error) {
    return { leadId: null, message: error instanceof Error ? error.message : submitFailureText };
  }
}
