import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Car } from '@dealer/contracts/car';
import type { SiteConfig } from '@dealer/contracts/site';
import { validateFields } from '@dealer/rules/lead-validation';
import { normalisePhone, phoneRuleFor } from '@dealer/rules/phone';
import { formatPrice } from '@dealer/rules/price';
import { canReserve, reserveBlockReasons, reserveOptionsFor, siteTakesDeposits } from '@dealer/rules/reserve';
import {
  checkoutFormRules,
  checkoutMessages,
  depositFor,
  reservationHoldMinutes,
  reservationLeadCategory,
  statesAllowing,
  type CheckoutContact,
} from '@dealer/rules/reservation';
import { vehiclePath } from '@dealer/rules/routes';
import { carSlugPattern } from '@dealer/contracts/car';
import { findCarById, findCarBySlug, updateCar } from '@dealer/db/car-store';
import type { DatabaseEngine } from '@dealer/db/database-engine';
import type { PlatformDb } from '@dealer/db/database';
import type { Log as WorkerLog } from '@dealer/db/worker-log';
import {
  expireRunOutHolds,
  findReservation,
  holdCar,
  markCarHold,
  moveReservation,
  noteOnReservation,
  reservationsAwaitingLead,
  setReservationLead,
  type StoredReservation,
} from '@dealer/db/reservation-store';
import { isRecord } from '@dealer/leads/is-record';
import { checkFieldsMessage, type LeadService } from '@dealer/leads/lead-service';
import { retryAfterText } from '@dealer/leads/spam';
import type { StockIndexer } from '../search/indexer';
import {
  PaymentNotConfigured,
  PaymentNoticeRefused,
  PaymentProviderFailed,
  PaymentProviderRefused,
  type PaymentProvider,
  type PaymentProviderKind,
} from './payment-provider';
import { stripePublishableKey, type PaymentProviders } from './payment-providers';
import { checkTestCard, testCardOutcome } from './test-provider';

/** Why the checkout said no; the route answers each with its HTTP status (routes/checkout.ts checkoutStatus). */
export type CheckoutRefusalReason =
  /** The site takes no deposits. */
  | 'no-checkout'
  /** The shopper's details or card do not pass (with `fields`). */
  | 'invalid'
  /** No such car or reservation (for this shopper, on this site), or no such payment provider here. */
  | 'not-found'
  /** The car or reservation is not in a state that allows it. */
  | 'conflict'
  /** The shopper already holds as many cars of the site as one person may (with `retryAfterMs`). */
  | 'too-many-holds'
  /** The test card was declined. */
  | 'declined'
  /** Payments are not set up for the site. */
  | 'payments-unavailable'
  /** The payment provider failed; trying again may work. */
  | 'provider-failed';

export type CheckoutRefusal = {
  ok: false;
  reason: CheckoutRefusalReason;
  message: string;
  fields?: Record<string, string>;
  retryAfterMs?: number;
};
/** What the checkout did, or why it did not. */
export type CheckoutResult<T> = { ok: true; value: T } | CheckoutRefusal;

export type HoldStarted = {
  reservation: ReservationView;
  token: string;
  payment: { provider: PaymentProviderKind; client_secret: string | null; redirect_url: string | null; publishable_key: string | null };
};
export type NoticeReceipt = { received: true; ignored?: string; state?: StoredReservation['state'] | null };

/** What the shopper's browser is told of a reservation: never the token's hash, nor the customer's details. */
export type ReservationView = {
  id: number;
  state: StoredReservation['state'];
  car: { id: number; slug: string; name: string };
  deposit: { amount_cents: number; currency: string };
  held_until: number;
  provider: string;
  payment_reference: string | null;
};

const holdMs = reservationHoldMinutes * 60_000;
const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');
const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

type Log = Pick<WorkerLog, 'error' | 'warn'>;

/** Over the per-person hold limit: what they hold, what to do, and when a hold of theirs runs out. */
export const holdLimitMessage = (perPerson: number, wait: string) =>
  `You already hold ${perPerson === 1 ? 'a car' : `${perPerson} cars`} here. Finish or let go of one before holding another, or try again in ${wait}, when a hold runs out.`;

/**
 * Reserving a car with a card deposit (issue 10), from the hold to the dealer's lead:
 * 1. `hold`: the car passes SPEC §9's rules, the shopper's details SPEC §5's; the car is held for
 *    15 minutes (one holder: the store's unique `active_car_id`) and the provider starts a payment
 *    for the amount the server decided.
 * 2. The payment lands (`payWithTestCard` in process, or a provider's signed notification): the
 *    reservation becomes `reserved` once, however often or concurrently that is told; a payment
 *    that lands after the car went to someone else is refunded (decision 0005).
 * 3. `finish`: the car is marked reserved (store and search) and the dealer gets a lead through the
 *    outbox, idempotent by the reservation, so a crash between steps is finished by `sweep`.
 */
export class ReservationService {
  constructor(
    private readonly deps: {
      db: PlatformDb;
      engine: DatabaseEngine;
      /** Live holds one e-mail, phone or client address may have on a site at once (0: no limit). */
      holdsPerPerson: number;
      indexer: Pick<StockIndexer, 'indexCar'>;
      leads: LeadService;
      providers: PaymentProviders;
      siteOf: (siteId: number) => Promise<SiteConfig | null>;
      log: Log;
    },
  ) {}

  get providers() {
    return this.deps.providers;
  }

  /**
   * Holds the car for the shopper and starts the payment. `clientAddress` is the shopper's as the
   * per-address limits count it; `log` the request's, so a failure is told with the request.
   */
  async hold(input: {
    site: SiteConfig;
    slug: string;
    body: unknown;
    clientAddress: string;
    returnUrl: (id: number) => string;
    log?: Log;
    now?: number;
  }): Promise<CheckoutResult<HoldStarted>> {
    const now = input.now ?? Date.now();
    const log = input.log ?? this.deps.log;
    const { site } = input;
    if (!siteTakesDeposits(site)) return refusal('no-checkout', checkoutMessages.noCheckout);
    const values = isRecord(input.body) ? input.body : {};
    const fields = validateFields(checkoutFormRules, values, { phoneRule: phoneRuleFor(site), locale: site.locale });
    if (Object.keys(fields).length > 0) return refusal('invalid', checkFieldsMessage, fields);
    const contact: CheckoutContact = {
      first_name: text(values.first_name),
      last_name: text(values.last_name),
      email: text(values.email),
      phone: text(values.phone),
    };
    if (Object.values(contact).some((value) => value.length > 200))
      return refusal('invalid', 'Please keep each of your details under 200 characters.');

    const car = carSlugPattern.test(input.slug) ? await findCarBySlug(this.deps.db, site.id, input.slug) : null;
    // A car the dealer keeps off the website is not there to reserve either.
    if (!car || !car.show_on_dealer_website) return refusal('not-found', 'This car could not be found on this site.');
    const decision = canReserve(car, reserveOptionsFor(site));
    if (!decision.ok) return refusal('conflict', decision.reason);
    const deposit = depositFor(car, site.locale);
    if (!deposit) return refusal('conflict', checkoutMessages.noDeposit);
    let provider: PaymentProvider;
    try {
      provider = this.deps.providers.forDeposit(site, deposit.provider);
    } catch (error) {
      if (error instanceof PaymentNotConfigured) return refusal('payments-unavailable', error.message);
      throw error;
    }

    const token = randomBytes(24).toString('base64url');
    const holder = {
      email: contact.email.toLowerCase(),
      phone: normalisePhone(contact.phone, phoneRuleFor(site)),
      address: input.clientAddress,
    };
    const held = await holdCar(
      this.deps.db,
      {
        siteId: site.id,
        carId: car.id,
        provider: provider.kind,
        amountCents: deposit.amountCents,
        currency: deposit.currency,
        customer: contact,
        secretHash: hashOf(token),
        heldUntil: now + holdMs,
        holder,
      },
      now,
      { perPerson: this.deps.holdsPerPerson, engine: this.deps.engine },
    );
    if (!held.ok && 'overLimit' in held) {
      const retryAfterMs = Math.max(1000, held.overLimit.freeAt - now);
      return { ...refusal('too-many-holds', holdLimitMessage(this.deps.holdsPerPerson, retryAfterText(retryAfterMs))), retryAfterMs };
    }
    if (!held.ok) return refusal('conflict', held.takenBy === 'reserved' ? reserveBlockReasons.reserved : checkoutMessages.heldByOther);
    const reservation = held.reservation;
    let started;
    try {
      started = await provider.start({
        reservationId: reservation.id,
        amountCents: deposit.amountCents,
        currency: deposit.currency,
        description: `Deposit to reserve the ${car.name}${car.stocknum ? ` (stock ${car.stocknum})` : ''} at ${site.name}`,
        customerEmail: contact.email,
        returnUrl: input.returnUrl(reservation.id),
        idempotencyKey: `reservation-${reservation.id}-payment`,
      });
    } catch (error) {
      // No payment started: the car goes straight back rather than waiting out the hold.
      await moveReservation(this.deps.db, reservation.id, ['holding'], 'cancelled', now, { last_error: errorText(error) });
      if (error instanceof PaymentProviderRefused) {
        log.error(
          { err: error, reservationId: reservation.id, provider: provider.kind, reason: error.reason },
          'the payment provider refused to start the payment',
        );
        return refusal('provider-failed', checkoutMessages.paymentNotStarted);
      }
      if (error instanceof PaymentProviderFailed) {
        log.error({ err: error, reservationId: reservation.id, provider: provider.kind }, 'payment could not be started');
        return refusal('provider-failed', checkoutMessages.payingFailed);
      }
      throw error;
    }
    await noteOnReservation(this.deps.db, reservation.id, { payment_ref: started.ref }, now);
    await this.showHold(car.id, now);
    return {
      ok: true,
      value: {
        reservation: viewOf({ ...reservation, payment_ref: started.ref }, car),
        token,
        payment: {
          provider: provider.kind,
          client_secret: started.clientSecret,
          redirect_url: started.redirectUrl,
          publishable_key: provider.kind === 'stripe' ? stripePublishableKey(site, car) : null,
        },
      },
    };
  }

  /** The shopper's own reservation (the token proves it), as the confirmation page shows it. */
  async status(
    site: SiteConfig,
    id: number,
    token: string | null,
    now = Date.now(),
  ): Promise<CheckoutResult<{ reservation: ReservationView }>> {
    const reservation = await this.owned(site, id, token);
    if (!reservation) return refusal('not-found', checkoutMessages.notYours);
    return { ok: true, value: { reservation: await this.view(runOut(reservation, now)) } };
  }

  /** Pays the deposit with a test card (the built-in test provider only). A declined card keeps the hold. */
  async payWithTestCard(
    site: SiteConfig,
    id: number,
    token: string | null,
    body: unknown,
    now = Date.now(),
  ): Promise<CheckoutResult<{ reservation: ReservationView }>> {
    const reservation = await this.owned(site, id, token);
    if (!reservation) return refusal('not-found', checkoutMessages.notYours);
    if (reservation.provider !== 'test') return refusal('conflict', 'This reservation is paid on the payment provider’s own form.');
    if (reservation.state === 'reserved') return { ok: true, value: { reservation: await this.view(reservation) } };
    if (reservation.state !== 'holding' || reservation.held_until <= now) {
      await moveReservation(this.deps.db, id, statesAllowing('hold-ran-out'), 'expired', now);
      return refusal('conflict', checkoutMessages.holdRanOut);
    }
    const card = isRecord(body) ? body : {};
    const fields = checkTestCard({ number: text(card.card_number), expiry: text(card.expiry), cvc: text(card.cvc) }, now);
    if (Object.keys(fields).length > 0) return refusal('invalid', checkFieldsMessage, fields);
    const outcome = testCardOutcome(text(card.card_number));
    if (!outcome.paid) {
      await noteOnReservation(this.deps.db, id, { last_error: outcome.message }, now);
      return refusal('declined', outcome.message, { card_number: outcome.message });
    }
    const confirmed = await this.confirmPaid(id, reservation.payment_ref!, now);
    return { ok: true, value: { reservation: await this.view(confirmed!) } };
  }

  /** The shopper gives the hold up before paying: the car is free at once. */
  async cancel(
    site: SiteConfig,
    id: number,
    token: string | null,
    now = Date.now(),
  ): Promise<CheckoutResult<{ reservation: ReservationView }>> {
    const reservation = await this.owned(site, id, token);
    if (!reservation) return refusal('not-found', checkoutMessages.notYours);
    if (await moveReservation(this.deps.db, id, statesAllowing('shopper-cancelled'), 'cancelled', now))
      await this.showHold(reservation.car_id, now);
    return { ok: true, value: { reservation: await this.view((await findReservation(this.deps.db, id))!) } };
  }

  /**
   * The car's hold as search and its page show it ("On hold" until the hold runs out), after a
   * hold started or ended early. Search being behind does not undo the hold: it is logged.
   */
  private async showHold(carId: number, now: number): Promise<void> {
    const marked = await markCarHold(this.deps.db, carId, now);
    if (!marked) return;
    try {
      await this.deps.indexer.indexCar(marked.siteId, marked.car);
    } catch (error) {
      this.deps.log.error({ err: error, carId }, 'car hold not pushed to search');
    }
  }

  /**
   * A provider's signed notification about a payment. Answers 400 to anything whose signature does
   * not check out, 200 once the notification is acted on (or is not ours), 502 when a refund it
   * calls for could not be made yet (the provider sends it again).
   */
  async notice(
    site: SiteConfig,
    kind: Exclude<PaymentProviderKind, 'test'>,
    rawBody: Buffer,
    headers: Readonly<Record<string, string | string[] | undefined>>,
    now = Date.now(),
  ): Promise<CheckoutResult<NoticeReceipt>> {
    let provider: PaymentProvider;
    try {
      provider = this.deps.providers.named(site, kind);
    } catch (error) {
      if (error instanceof PaymentNotConfigured) return refusal('not-found', `${kind} payments are not configured for this site.`);
      throw error;
    }
    if (!provider.readNotice) return refusal('not-found', `${kind} payments take no notifications here.`);
    let notice;
    try {
      notice = provider.readNotice(rawBody, headers);
    } catch (error) {
      if (error instanceof PaymentNoticeRefused) return refusal('invalid', error.message);
      throw error;
    }
    if (notice.kind === 'ignored') return { ok: true, value: { received: true, ignored: notice.type } };
    const reservation = notice.reservationId === null ? null : await findReservation(this.deps.db, notice.reservationId);
    // Not one of this site's reservations, or another payment than the one it started: nothing to do here.
    if (
      !reservation ||
      reservation.site_id !== site.id ||
      reservation.provider !== kind ||
      (reservation.payment_ref !== null && reservation.payment_ref !== notice.ref)
    ) {
      return { ok: true, value: { received: true, ignored: 'unknown payment' } };
    }
    if (notice.kind === 'failed') {
      // Providers do not promise order: a decline told after the payment succeeded says nothing new.
      if (reservation.state === 'holding') await noteOnReservation(this.deps.db, reservation.id, { last_error: notice.message }, now);
      return { ok: true, value: { received: true } };
    }
    try {
      const after = await this.confirmPaid(reservation.id, notice.ref, now);
      return { ok: true, value: { received: true, state: after?.state ?? null } };
    } catch (error) {
      if (error instanceof PaymentProviderFailed)
        return refusal('provider-failed', 'The refund could not be made yet; send this notification again.');
      throw error;
    }
  }

  /**
   * A payment of `ref` for the reservation has succeeded. The reservation becomes `reserved` when
   * the car can still be its (once: the move is guarded by state); otherwise the payment is
   * refunded (decision 0005). Safe to call again and concurrently.
   */
  async confirmPaid(id: number, ref: string, now = Date.now()): Promise<StoredReservation | null> {
    const moved = await moveReservation(this.deps.db, id, statesAllowing('paid'), 'reserved', now, { payment_ref: ref, last_error: null });
    const reservation = await findReservation(this.deps.db, id);
    if (!reservation) return null;
    if (reservation.state === 'reserved') {
      if (reservation.lead_id === null) await this.finish(reservation, now);
      return (await findReservation(this.deps.db, id))!;
    }
    if (!moved && statesAllowing('paid-too-late').includes(reservation.state)) return this.refundLatePayment(reservation, ref, now);
    return reservation;
  }

  /** The car went to someone else before this payment landed: the deposit goes straight back. */
  private async refundLatePayment(reservation: StoredReservation, ref: string, now: number): Promise<StoredReservation> {
    const site = await this.deps.siteOf(reservation.site_id);
    try {
      if (!site) throw new PaymentProviderFailed(`site ${reservation.site_id} is gone`);
      const provider = this.deps.providers.named(site, reservation.provider as PaymentProviderKind);
      // One refund however many notifications race here: the provider keys it by the reservation.
      const refund = await provider.refund(ref, reservation.amount_cents, `reservation-${reservation.id}-late-refund`);
      await moveReservation(this.deps.db, reservation.id, statesAllowing('paid-too-late'), 'refunded', now, {
        payment_ref: ref,
        refund_ref: refund.ref,
        last_error: null,
      });
    } catch (error) {
      await noteOnReservation(
        this.deps.db,
        reservation.id,
        { payment_ref: ref, last_error: `late payment not refunded yet: ${errorText(error)}` },
        now,
      );
      this.deps.log.error({ err: error, reservationId: reservation.id }, 'a payment that landed after its hold could not be refunded');
      throw error instanceof PaymentProviderFailed ? error : new PaymentProviderFailed(errorText(error), { cause: error });
    }
    return (await findReservation(this.deps.db, reservation.id))!;
  }

  /**
   * The steps after the payment: the car marked reserved in the store and pushed to search (so
   * search and its page say "Reserved" at once), then the dealer's lead through the outbox. Each
   * is idempotent; `lead_id` set means all are done.
   */
  private async finish(reservation: StoredReservation, now: number): Promise<void> {
    const site = await this.deps.siteOf(reservation.site_id);
    const found = await findCarById(this.deps.db, reservation.car_id);
    if (!site || !found) {
      this.deps.log.error({ reservationId: reservation.id }, 'a paid reservation has no site or car left to finish');
      return;
    }
    // The hold is over (the car is reserved): its "On hold" goes, so a release shows the car free.
    let car = found.car.on_hold_until_timestamp ? ((await markCarHold(this.deps.db, found.car.id, now))?.car ?? found.car) : found.car;
    if (!car.reserved) car = (await updateCar(this.deps.db, car.id, { reserved: true }, now))?.car ?? car;
    try {
      await this.deps.indexer.indexCar(site.id, car);
    } catch (error) {
      this.deps.log.error({ err: error, carId: car.id }, 'car reserved but not pushed to search');
    }
    const lead = await this.deps.leads.create({
      site,
      lead: reservationLead(site, car, reservation),
      idempotencyKey: `reservation-${reservation.id}`,
      userAgent: 'Dealer platform checkout',
      ip: 'platform',
      mock: false,
      trusted: true,
      now,
    });
    if (lead.status === 200 || lead.status === 201) {
      await setReservationLead(this.deps.db, reservation.id, (lead.body as { id: number }).id, now);
    } else {
      const message = (lead.body as { message: string }).message;
      await noteOnReservation(this.deps.db, reservation.id, { last_error: `dealer lead not raised: ${message}` }, now);
      this.deps.log.error({ reservationId: reservation.id, reply: lead.body }, 'a paid reservation could not be raised as a lead');
    }
  }

  /**
   * The dealer gives a reserved car back: the deposit is refunded through the provider that took
   * it (keyed by the reservation, so a retried release refunds once), then the car is free again.
   */
  async release(siteId: number, id: number, now = Date.now()): Promise<CheckoutResult<{ reservation: ReturnType<typeof dealerView> }>> {
    const reservation = await findReservation(this.deps.db, id);
    if (!reservation || reservation.site_id !== siteId) return refusal('not-found', `No reservation ${id} on this site.`);
    if (reservation.state === 'released') return { ok: true, value: { reservation: dealerView(reservation) } };
    if (!statesAllowing('dealer-released').includes(reservation.state)) {
      return refusal('conflict', `Reservation ${id} is ${reservation.state}: only a reserved car can be released.`);
    }
    const site = await this.deps.siteOf(siteId);
    if (!site) return refusal('not-found', `No reservation ${id} on this site.`);
    let refundRef: string;
    try {
      const provider = this.deps.providers.named(site, reservation.provider as PaymentProviderKind);
      refundRef = (await provider.refund(reservation.payment_ref!, reservation.amount_cents, `reservation-${id}-release`)).ref;
    } catch (error) {
      if (!(error instanceof PaymentProviderFailed || error instanceof PaymentNotConfigured)) throw error;
      await noteOnReservation(this.deps.db, id, { last_error: `release refund failed: ${errorText(error)}` }, now);
      return refusal('provider-failed', `The deposit could not be refunded (${errorText(error)}); the car stays reserved. Try again.`);
    }
    await moveReservation(this.deps.db, id, statesAllowing('dealer-released'), 'released', now, {
      refund_ref: refundRef,
      last_error: null,
    });
    const changed = await updateCar(this.deps.db, reservation.car_id, { reserved: false }, now);
    if (changed) {
      await this.deps.indexer
        .indexCar(changed.siteId, changed.car)
        .catch((error: unknown) => this.deps.log.error({ err: error, carId: changed.car.id }, 'car released but not pushed to search'));
    }
    return { ok: true, value: { reservation: dealerView((await findReservation(this.deps.db, id))!) } };
  }

  /** The periodic tidy: holds that ran out let go, paid reservations whose lead is missing finished. */
  async sweep(now = Date.now()): Promise<{ expired: number; finished: number }> {
    const expired = await expireRunOutHolds(this.deps.db, now);
    const waiting = await reservationsAwaitingLead(this.deps.db, 100);
    for (const reservation of waiting) await this.finish(reservation, now);
    return { expired, finished: waiting.length };
  }

  private async owned(site: SiteConfig, id: number, token: string | null): Promise<StoredReservation | null> {
    if (!token || !Number.isSafeInteger(id) || id <= 0) return null;
    const reservation = await findReservation(this.deps.db, id);
    if (!reservation || reservation.site_id !== site.id) return null;
    const given = Buffer.from(hashOf(token), 'hex');
    const kept = Buffer.from(reservation.secret_hash, 'hex');
    return given.length === kept.length && timingSafeEqual(given, kept) ? reservation : null;
  }

  private async view(reservation: StoredReservation): Promise<ReservationView> {
    const found = await findCarById(this.deps.db, reservation.car_id);
    return viewOf(reservation, found?.car ?? null);
  }
}

/** A hold past its time reads as expired, whether or not the sweep has been by yet. */
const runOut = (reservation: StoredReservation, now: number): StoredReservation =>
  reservation.state === 'holding' && reservation.held_until <= now ? { ...reservation, state: 'expired' } : reservation;

function viewOf(reservation: StoredReservation, car: Pick<Car, 'id' | 'slug' | 'name'> | null): ReservationView {
  const settled = reservation.state === 'reserved' || reservation.state === 'released' || reservation.state === 'refunded';
  return {
    id: reservation.id,
    state: reservation.state,
    car: { id: reservation.car_id, slug: car?.slug ?? '', name: car?.name ?? '' },
    deposit: { amount_cents: reservation.amount_cents, currency: reservation.currency },
    held_until: reservation.held_until,
    provider: reservation.provider,
    payment_reference: settled ? reservation.payment_ref : null,
  };
}

/** What the dealer sees of a reservation (admin API, CLI): everything but the shopper's token hash. */
export function dealerView(reservation: StoredReservation) {
  const {
    secret_hash: _hash,
    active_car_id: _active,
    holder_email: _email,
    holder_phone: _phone,
    holder_address: _address,
    ...rest
  } = reservation;
  return rest;
}

/** The dealer's lead of a paid reservation: the shopper, the car and the payment reference. */
function reservationLead(site: SiteConfig, car: Car, reservation: StoredReservation): Record<string, unknown> {
  const deposit = formatPrice(reservation.amount_cents / 100, { locale: site.locale });
  return {
    category: reservationLeadCategory,
    subcategory: 'Deposit paid',
    name: reservation.customer.first_name,
    last_name: reservation.customer.last_name,
    email: reservation.customer.email,
    phone: reservation.customer.phone,
    car_id: car.id,
    car_type: car.car_type,
    stock_number: car.stocknum || undefined,
    dealership_slug: car.dealership_slug,
    location_id: car.location_id,
    opt_in: false,
    url: `${site.url.replace(/\/$/, '')}${vehiclePath(site, car.slug)}`,
    message: `Reserved online with a ${deposit} ${reservation.currency} deposit. Payment reference ${reservation.payment_ref} (${reservation.provider}), reservation ${reservation.id}.`,
    reservation: {
      id: reservation.id,
      deposit_cents: reservation.amount_cents,
      currency: reservation.currency,
      payment_provider: reservation.provider,
      payment_reference: reservation.payment_ref,
    },
  };
}

const refusal = (reason: CheckoutRefusalReason, message: string, fields?: Record<string, string>): CheckoutRefusal => ({
  ok: false,
  reason,
  message,
  ...(fields ? { fields } : {}),
});
const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500);

/** How often run-out holds are let go and unfinished reservations finished. */
export const checkoutSweepMs = 30_000;
