/** The checkout's calls to `/api` (platform/server/src/routes/checkout.ts) and where the shopper's reservation token is kept. */

export type ReservationState = 'holding' | 'reserved' | 'expired' | 'cancelled' | 'released' | 'refunded';

export type Reservation = {
  id: number;
  state: ReservationState;
  car: { id: number; slug: string; name: string };
  deposit: { amount_cents: number; currency: string };
  held_until: number;
  provider: string;
  payment_reference: string | null;
};

export type StartedPayment = {
  provider: string;
  client_secret: string | null;
  redirect_url: string | null;
  publishable_key: string | null;
};

export type ApiAnswer<T> = { ok: true; data: T } | { ok: false; status: number; message: string; fields: Record<string, string> };

/** SPEC §8: the JSON error's message, else 'An unexpected error occurred' with the status text. */
async function call<T>(url: string, init: RequestInit): Promise<ApiAnswer<T>> {
  let response: Response;
  try {
    response = await fetch(url, {
      ...init,
      headers: { Accept: 'application/json', ...(init.body ? { 'Content-Type': 'application/json' } : {}), ...init.headers },
    });
  } catch {
    return {
      ok: false,
      status: 0,
      message: 'We could not reach the dealership’s website. Check your connection and try again.',
      fields: {},
    };
  }
  const body = (await response.json().catch(() => null)) as (T & { message?: string; fields?: Record<string, string> }) | null;
  if (response.ok && body) return { ok: true, data: body };
  return {
    ok: false,
    status: response.status,
    message: body?.message ?? `An unexpected error occurred ${response.statusText}`,
    fields: body?.fields ?? {},
  };
}

const tokenKey = (id: number) => `dp-reservation-${id}`;

/** The token proving the reservation is this shopper's: kept for the tab, so the confirmation survives a reload or a payment page's redirect. */
export const reservationToken = {
  get: (id: number) => {
    try {
      return sessionStorage.getItem(tokenKey(id));
    } catch {
      return null;
    }
  },
  set: (id: number, token: string) => {
    try {
      sessionStorage.setItem(tokenKey(id), token);
    } catch {
      // Private mode without storage: the confirmation shows while the page stays open.
    }
  },
};

const withToken = (id: number) => ({ 'X-Reservation-Token': reservationToken.get(id) ?? '' });

export const checkoutApi = {
  hold: (slug: string, details: Record<string, unknown>) =>
    call<{ reservation: Reservation; token: string; payment: StartedPayment }>(`/api/cars/${encodeURIComponent(slug)}/reservations`, {
      method: 'POST',
      body: JSON.stringify(details),
    }),
  status: (id: number) => call<{ reservation: Reservation }>(`/api/reservations/${id}`, { method: 'GET', headers: withToken(id) }),
  payWithTestCard: (id: number, card: Record<string, unknown>) =>
    call<{ reservation: Reservation }>(`/api/reservations/${id}/test-payment`, {
      method: 'POST',
      body: JSON.stringify(card),
      headers: withToken(id),
    }),
  cancel: (id: number) => call<{ reservation: Reservation }>(`/api/reservations/${id}`, { method: 'DELETE', headers: withToken(id) }),
};
