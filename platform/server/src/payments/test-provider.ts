import { randomBytes } from 'node:crypto';
import type { PaymentOutcome, PaymentProvider, PaymentRequest, StartedPayment } from './payment-provider';

/**
 * The built-in test provider, the embedded default: deposits work offline, with the card numbers
 * Stripe's test mode uses and the words it answers with.
 */
export const testCards = {
  succeeds: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
} as const;

export const testCardMessages = {
  declined: 'Your card was declined.',
  insufficientFunds: 'Your card has insufficient funds.',
  incorrectNumber: 'Your card number is incorrect.',
  notATestCard: 'Use a test card in test mode, e.g. 4242 4242 4242 4242.',
} as const;

/** Stripe's words for a card form filled in wrongly. */
export const cardFormMessages = {
  numberIncomplete: 'Your card number is incomplete.',
  expiryIncomplete: 'Your card’s expiration date is incomplete.',
  expiryPast: 'Your card’s expiration year is in the past.',
  cvcIncomplete: 'Your card’s security code is incomplete.',
} as const;

/**
 * The card form's own checks before a payment is tried (field → message): a number of 12 to 19
 * digits, an expiry MM/YY not past, a 3 or 4 digit security code.
 */
export function checkTestCard(card: { number: string; expiry: string; cvc: string }, now: number): Record<string, string> {
  const fields: Record<string, string> = {};
  if (!/^\d{12,19}$/.test(card.number.replace(/[\s-]/g, ''))) fields.card_number = cardFormMessages.numberIncomplete;
  const expiry = /^(\d{2})\s*\/\s*(\d{2})$/.exec(card.expiry);
  const month = expiry ? Number(expiry[1]) : 0;
  if (!expiry || month < 1 || month > 12) fields.expiry = cardFormMessages.expiryIncomplete;
  else {
    const today = new Date(now);
    const year = 2000 + Number(expiry[2]);
    if (year < today.getUTCFullYear() || (year === today.getUTCFullYear() && month < today.getUTCMonth() + 1))
      fields.expiry = cardFormMessages.expiryPast;
  }
  if (!/^\d{3,4}$/.test(card.cvc)) fields.cvc = cardFormMessages.cvcIncomplete;
  return fields;
}

/** Luhn's check, which every card number passes. */
function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

/** What paying with this card number does, spaces and dashes ignored. */
export function testCardOutcome(cardNumber: string): PaymentOutcome {
  const digits = cardNumber.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(digits) || !luhnValid(digits)) return { paid: false, message: testCardMessages.incorrectNumber };
  if (digits === testCards.succeeds) return { paid: true };
  if (digits === testCards.declined) return { paid: false, message: testCardMessages.declined };
  if (digits === testCards.insufficientFunds) return { paid: false, message: testCardMessages.insufficientFunds };
  return { paid: false, message: testCardMessages.notATestCard };
}

/** Keys remembered for idempotent retries, as a provider keeps them for a day; the oldest go first. */
const rememberedKeys = 10_000;

export class TestPaymentProvider implements PaymentProvider {
  readonly kind = 'test' as const;
  private readonly answered = new Map<string, string>();

  async start(request: PaymentRequest): Promise<StartedPayment> {
    return { ref: this.once(`start:${request.idempotencyKey}`, 'test_pi_'), clientSecret: null, redirectUrl: null };
  }

  async refund(_ref: string, _amountCents: number, idempotencyKey: string): Promise<{ ref: string }> {
    return { ref: this.once(`refund:${idempotencyKey}`, 'test_re_') };
  }

  /** The same answer to a retried request, as Stripe gives for a repeated Idempotency-Key. */
  private once(key: string, prefix: string): string {
    const known = this.answered.get(key);
    if (known) return known;
    const ref = `${prefix}${randomBytes(12).toString('hex')}`;
    if (this.answered.size >= rememberedKeys) this.answered.delete(this.answered.keys().next().value!);
    this.answered.set(key, ref);
    return ref;
  }
}
