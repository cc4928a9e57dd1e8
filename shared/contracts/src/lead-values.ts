// Plain values only (no zod), so browser bundles can import them without the schema library.

/** SPEC §3 enquiry types. */
export const enquiryTypes = [
  'General Enquiry',
  'Service Enquiry',
  'Parts Enquiry',
  'New Vehicle Enquiry',
  'Used Vehicle Enquiry',
  'Fleet Enquiry',
  'Finance Enquiry',
  'Careers Enquiry',
  'Sell My Car Enquiry',
] as const;

/** SPEC §5 form messages, word for word, shared by the forms and the API's field errors. */
export const formMessages = {
  required: '*This is a required field.',
  invalidEmail: 'invalid email address',
  alphabetical: 'Please use alphabetical characters only.',
} as const;

/**
 * The lead API's spam traps (issue 5): hidden fields a person never sees and so leaves empty, and
 * when the form was shown (ms since the epoch). A lead that trips one is held for the dealer, not
 * dropped, and the browser is answered as usual.
 */
export const leadHoneypotFields = ['website', 'company_url'] as const;
export const leadFormStartedAtField = 'form_started_at';

/** PUT /api/leads/{id} carries the update token its create returned in this header (or as update_token in the body). */
export const leadUpdateTokenHeader = 'X-Lead-Update-Token';
