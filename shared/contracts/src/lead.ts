import { z } from 'zod';

export { enquiryTypes, leadFormStartedAtField, leadHoneypotFields, leadUpdateTokenHeader } from './lead-values';
import { formMessages, type enquiryTypes } from './lead-values';

export type EnquiryType = (typeof enquiryTypes)[number];

/** SPEC §5: the one message for a required field, whether it is missing, empty or blank. */
const requiredText = () => z.string({ error: formMessages.required }).trim().min(1, formMessages.required);

/**
 * A complete lead as the browser sends it inside `{ lead: {...} }` (SPEC §3 Lead and Enquiry
 * payloads): the shape only. The API checks each field with the SPEC §5 rules of
 * @dealer/rules/lead-validation, and holds a partial save (lead_status 'Incomplete') to the
 * format rules alone.
 */
export const leadInputSchema = z
  .object({
    lead_id: z.number().int().optional(),
    lead_status: z.string().optional(),
    form_completed: z.boolean().optional(),
    category: requiredText(),
    subcategory: z.string().optional(),
    name: requiredText(),
    middle_name: z.string().optional(),
    last_name: z.string().optional(),
    phone: requiredText(),
    email: requiredText(),
    postcode: z.string().optional(),
    message: z.string().optional(),
    opt_in: z.boolean().optional(),
    car_id: z.number().int().optional(),
    car_type: z.string().optional(),
    stock_number: z.string().optional(),
    dealership_slug: z.string().optional(),
    location_id: z.number().int().optional(),
    url: z.string().optional(),
    visited_pages: z.array(z.string()).max(50).optional(),
    linked_query_params: z.record(z.string(), z.string()).optional(),
    first_name: z.string().optional(),
    has_files: z.boolean().optional(),
    step_number: z.number().int().optional(),
    skipped_steps: z.array(z.object({ from: z.number().int(), to: z.number().int() })).optional(),
    /** The time trap: when the form was shown, ms since the epoch. */
    form_started_at: z.number().optional(),
  })
  .passthrough();
export type LeadInput = z.infer<typeof leadInputSchema>;

/** A saved lead: its id (twice, as SPEC §7 reads `id`) and the token an update of it must carry. */
export const leadResultSchema = z.object({ id: z.number().int(), lead_id: z.number().int(), update_token: z.string() });
export type LeadResult = z.infer<typeof leadResultSchema>;

export const apiErrorSchema = z.object({
  message: z.string(),
  fields: z.record(z.string(), z.string()).optional(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;
