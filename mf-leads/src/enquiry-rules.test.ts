import { describe, expect, it } from 'vitest';
import { alphabeticalMessage, invalidEmailMessage, requiredMessage, validateEnquiry, type EnquiryValues } from './enquiry-rules';

const valid: EnquiryValues = { category: 'General Enquiry', name: 'Jane', last_name: 'Citizen', email: 'jane@example.com', phone: '0411222333', message: 'Is it available?', opt_in: true };

describe('enquiry form validation (SPEC §5)', () => {
  it('accepts a complete enquiry', () => {
    expect(validateEnquiry(valid)).toEqual({});
  });
  it.each([
    ['name', { name: '' }, requiredMessage],
    ['email', { email: ' ' }, requiredMessage],
    ['phone', { phone: '' }, requiredMessage],
    ['message', { message: '' }, requiredMessage],
    ['email', { email: 'jane@example' }, invalidEmailMessage],
    ['name', { name: 'J4ne' }, alphabeticalMessage],
    ['last_name', { last_name: 'O-Brien' }, alphabeticalMessage],
  ] as const)('%s: %j → %s', (field, change, message) => {
    expect(validateEnquiry({ ...valid, ...change })[field]).toBe(message);
  });
});
