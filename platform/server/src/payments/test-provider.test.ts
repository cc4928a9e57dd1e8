import { describe, expect, it } from 'vitest';
import { cardFormMessages, checkTestCard, testCardMessages, testCardOutcome, TestPaymentProvider } from './test-provider';

describe('the test payment provider', () => {
  it("takes Stripe's test cards as Stripe does: 4242… pays, 0002 is declined, 9995 has insufficient funds", () => {
    expect(testCardOutcome('4242 4242 4242 4242')).toEqual({ paid: true });
    expect(testCardOutcome('4000-0000-0000-0002')).toEqual({ paid: false, message: 'Your card was declined.' });
    expect(testCardOutcome('4000000000009995')).toEqual({ paid: false, message: 'Your card has insufficient funds.' });
  });

  it('says a mistyped number is incorrect, and a real-looking card is not a test card', () => {
    expect(testCardOutcome('4242 4242 4242 4241')).toEqual({ paid: false, message: testCardMessages.incorrectNumber });
    expect(testCardOutcome('4242')).toEqual({ paid: false, message: testCardMessages.incorrectNumber });
    expect(testCardOutcome('abcd efgh')).toEqual({ paid: false, message: testCardMessages.incorrectNumber });
    expect(testCardOutcome('5555 5555 5555 4444')).toEqual({ paid: false, message: testCardMessages.notATestCard });
  });

  it('starts each payment with its own reference, and answers a retried request (same key) the same', async () => {
    const provider = new TestPaymentProvider();
    const request = {
      reservationId: 1,
      amountCents: 50_000,
      currency: 'AUD',
      description: 'Deposit',
      customerEmail: 'ana@example.com',
      returnUrl: 'https://example.com/cars/x/checkout?reservation=1',
      idempotencyKey: 'reservation-1',
    };
    const first = await provider.start(request);
    expect(first.ref).toMatch(/^test_pi_[0-9a-f]{24}$/);
    expect((await provider.start(request)).ref).toBe(first.ref);
    expect((await provider.start({ ...request, idempotencyKey: 'reservation-2' })).ref).not.toBe(first.ref);
    const refund = await provider.refund(first.ref, 50_000, 'refund-1');
    expect(refund.ref).toMatch(/^test_re_/);
    expect((await provider.refund(first.ref, 50_000, 'refund-1')).ref).toBe(refund.ref);
  });

  it('checks the card form the way Stripe words it: number, expiry not past, security code', () => {
    const now = Date.UTC(2026, 10, 23);
    expect(checkTestCard({ number: '4242 4242 4242 4242', expiry: '11/26', cvc: '123' }, now)).toEqual({});
    expect(checkTestCard({ number: '4242', expiry: '10/26', cvc: '12' }, now)).toEqual({
      card_number: cardFormMessages.numberIncomplete,
      expiry: cardFormMessages.expiryPast,
      cvc: cardFormMessages.cvcIncomplete,
    });
    expect(checkTestCard({ number: '4242424242424242', expiry: '13/30', cvc: '1234' }, now)).toEqual({
      expiry: cardFormMessages.expiryIncomplete,
    });
    expect(checkTestCard({ number: '4242424242424242', expiry: '', cvc: '123' }, now)).toEqual({
      expiry: cardFormMessages.expiryIncomplete,
    });
  });
});
