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
