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
