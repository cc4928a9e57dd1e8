import { z } from 'zod';
import { formMessages } from '@dealer/contracts/lead-values';
import type { SiteConfig } from '@dealer/contracts/site';
import { validateFields, type FieldRule } from '@dealer/rules/lead-validation';
import { phoneRuleFor, type PhoneRule } from '@dealer/rules/phone';

/**
 * What the API checks of a lead, per field, with the messages the form shows (SPEC §5, the shared
 * rules in @dealer/rules/lead-validation and /phone). The API cannot know which form sent a lead,
 * so it holds every lead to what all of them ask: a complete lead needs a category, a name, a
 * phone and an email; any field that is filled in must be well formed (names, email, postcode,
 * phone by the site's region). A partial save (lead_status 'Incomplete') is only held to the
 * second: its later steps may not have been shown yet.
 */

/** `name` is the first name (SPEC §3); the shared rules give first names the letters-and-spaces check. */
const nameAlias = 'first_name';

const completeRules: FieldRule[] = [
  { name: 'category', type: 'string' },
  { name: nameAlias, type: 'string' },
  { name: 'middle_name', type: 'string', optional: true },
  { name: 'last_name', type: 'string', optional: true },
  { name: 'phone', type: 'phone' },
  { name: 'email', type: 'email' },
  { name: 'postcode', type: 'postcode', optional: true },
];
const partialRules: FieldRule[] = completeRules.map((rule) => ({ ...rule, optional: true }));

export function phoneRuleOfSite(site: Pick<SiteConfig, 'locale' | 'features' | 'lead_settings'>): PhoneRule {
  return phoneRuleFor({
    locale: site.locale,
    features: { ...site.features, mobile_only_phone: site.lead_settings?.mobile_only_phone ?? site.features.mobile_only_phone },
  });
}

/** SPEC §5 messages per field of the (assembled) lead values; empty when valid. */
export function ruleErrors(
  values: Record<string, unknown>,
  site: Pick<SiteConfig, 'locale' | 'features' | 'lead_settings'>,
  complete: boolean,
): Record<string, string> {
  // The shared first-name rule runs on `name`; a first_name sent beside it is checked on its own too.
  const checked = { ...values, [nameAlias]: values.name };
  const errors = validateFields(complete ? completeRules : partialRules, checked, {
    phoneRule: phoneRuleOfSite(site),
    locale: site.locale,
  });
  const fields: Record<string, string> = {};
  for (const [key, message] of Object.entries(errors)) fields[key === nameAlias ? 'name' : key] = message;
  if (values.first_name !== undefined && values.first_name !== values.name) {
    const own = validateFields([{ name: nameAlias, type: 'string', optional: true }], values, { phoneRule: phoneRuleOfSite(site) });
    if (own[nameAlias]) fields.first_name ??= own[nameAlias];
  }
  return fields;
}

const contactRules: FieldRule[] = [
  { name: 'email', type: 'email' },
  { name: 'phone', type: 'phone' },
];

/**
 * Whether the shopper gave a way to reach them: an email or a phone that passes the same rules as
 * the form's own fields. Only such a lead may hold a booking seat (decision record 0004).
 */
export function hasContactDetails(
  values: Record<string, unknown>,
  site: Pick<SiteConfig, 'locale' | 'features' | 'lead_settings'>,
): boolean {
  const errors = validateFields(contactRules, values, { phoneRule: phoneRuleOfSite(site), locale: site.locale });
  return !errors.email || !errors.phone;
}

/** Deeper than any form nests its answers; a deeper lead is refused before anything walks it recursively. */
export const maxLeadNesting = 32;
export const tooDeepMessage = `The enquiry is nested too deeply (more than ${maxLeadNesting} levels of objects and lists).`;

/** Whether objects and lists inside the value go more than `limit` levels deep, checked without recursion. */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [next, depth] = pending.pop()!;
    if (typeof next !== 'object' || next === null) continue;
    if (depth >= limit) return true;
    for (const child of Object.values(next)) pending.push([child, depth + 1]);
  }
  return false;
}

const notAnObject = 'The enquiry must be sent as { "lead": { ... } }.';

/** The shape of a lead's known fields; anything else the forms send passes through as it is. */
const shape = z
  .object(
    {
      lead_id: z.number({ error: 'must be a whole number' }).int('must be a whole number').positive().optional(),
      lead_status: z.string({ error: 'must be text' }).max(50).optional(),
      form_completed: z.boolean({ error: 'must be true or false' }).optional(),
      step_number: z.number({ error: 'must be a whole number' }).int('must be a whole number').nonnegative().optional(),
      skipped_steps: z
        .array(z.object({ from: z.number().int(), to: z.number().int() }), { error: 'must be a list of {from, to} steps' })
        .max(100)
        .optional(),
      category: z.string({ error: formMessages.required }).max(200).optional(),
      subcategory: z.string({ error: 'must be text' }).max(200).optional(),
      name: z.string({ error: 'must be text' }).max(200).optional(),
      first_name: z.string({ error: 'must be text' }).max(200).optional(),
      middle_name: z.string({ error: 'must be text' }).max(200).optional(),
      last_name: z.string({ error: 'must be text' }).max(200).optional(),
      phone: z.union([z.string(), z.number()], { error: formMessages.required }).optional(),
      email: z.string({ error: formMessages.invalidEmail }).max(320).optional(),
      postcode: z.union([z.string(), z.number()], { error: 'must be text' }).optional(),
      message: z.string({ error: 'must be text' }).max(20_000, 'Please keep the message under 20,000 characters.').optional(),
      opt_in: z.boolean({ error: 'must be true or false' }).optional(),
      has_files: z.boolean({ error: 'must be true or false' }).optional(),
      car_id: z.number({ error: 'must be a whole number' }).int('must be a whole number').optional(),
      location_id: z.number({ error: 'must be a whole number' }).int('must be a whole number').optional(),
      dealership_slug: z.string({ error: 'must be text' }).max(200).optional(),
      url: z.string({ error: 'must be text' }).max(4000).optional(),
      visited_pages: z.array(z.string().max(4000), { error: 'must be a list of page addresses' }).max(10_000).optional(),
      linked_query_params: z.record(z.string(), z.string(), { error: 'must be an object of text values' }).optional(),
    },
    { error: notAnObject },
  )
  .passthrough();

export type LeadValues = z.infer<typeof shape>;

/** Field → message: the first issue of each field, under the field's name. */
function issuesToFields(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.') || 'lead';
    fields[key] ??= issue.message;
  }
  return fields;
}

/** The zod check of the known fields' types, per field. */
export function checkLeadShape(
  lead: unknown,
): { ok: true; values: Record<string, unknown> } | { ok: false; fields: Record<string, string> } {
  const parsed = shape.safeParse(lead);
  return parsed.success
    ? { ok: true, values: parsed.data as Record<string, unknown> }
    : { ok: false, fields: issuesToFields(parsed.error) };
}

/**
 * The SPEC §5 rules over an assembled lead (its shape already checked by checkLeadShape), each
 * failing field reported once under its own name.
 */
export function validateLead(
  values: Record<string, unknown>,
  site: Pick<SiteConfig, 'locale' | 'features' | 'lead_settings'>,
  complete: boolean,
): { ok: true } | { ok: false; fields: Record<string, string> } {
  const fields = ruleErrors(values, site, complete);
  return Object.keys(fields).length === 0 ? { ok: true } : { ok: false, fields };
}
