import { formMessages } from '@dealer/contracts/lead-values';

export const { required: requiredMessage, invalidEmail: invalidEmailMessage, alphabetical: alphabeticalMessage } = formMessages;

export type EnquiryValues = {
  category: string;
  name: string;
  last_name: string;
  email: string;
  phone: string;
  message: string;
  opt_in: boolean;
};

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const namePattern = /^[A-Za-z ]+$/;

/** Form-level validation run on submit only (SPEC §5); the full per-region phone rules come with the leads work. */
export function validateEnquiry(values: EnquiryValues): Partial<Record<keyof EnquiryValues, string>> {
  const errors: Partial<Record<keyof EnquiryValues, string>> = {};
  const required = ['name', 'email', 'phone', 'message', 'category'] as const;
  for (const field of required) if (!String(values[field] ?? '').trim()) errors[field] = requiredMessage;
  if (!errors.name && !namePattern.test(values.name.trim())) errors.name = alphabeticalMessage;
  if (values.last_name?.trim() && !namePattern.test(values.last_name.trim())) errors.last_name = alphabeticalMessage;
  if (!errors.email && !emailPattern.test(values.email.trim())) errors.email = invalidEmailMessage;
  return errors;
}
