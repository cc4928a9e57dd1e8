import { z } from 'zod';

export { enquiryTypes } from './lead-values';
import { formMessages, type enquiryTypes } from './lead-values';

export type EnquiryType = (typeof enquiryTypes)[number];

/** SPEC §5: the one message for a required field, whether it is missing, empty or blank. */
const requiredText = () => z.string({ error: formMessages.required }).trim().min(1, formMessages.required);

/**
 * The lead as the browser sends it inside `{ lead: {...} }` (SPEC §3 Lead and Enquiry payloads).
 * Field-level rules with their exact messages live in the leads issue; here the shape is checked.
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
  })
  .passthrough();
export type LeadInput = z.infer<typeof leadInputSchema>;

export const leadResultSchema = z.object({ id: z.number().int(), lead_id: z.number().int() });
export type LeadResult = z.infer<typeof leadResultSchema>;

export const apiErrorSchema = z.object({
  message: z.string(),
  fields: z.record(z.string(), z.string()).optional(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;
