import { useSyncExternalStore } from 'react';
import type { Car } from '@dealer/contracts/car';

/** The signed-in shopper of this site (SPEC §3 user session: user and watchlist), kept once per page. */
export type Account = { user: { id: number; email: string; name?: string } | null; watchlist: number[] };
export type SavedSearch = { id: number; name: string; path: string };
export type Garage = {
  saved: { car_id: number; saved_price: number | null; car: Car | null }[];
  searches: SavedSearch[];
  /** The address asked for no more offers or alert e-mails from the site (the unsubscribe link or page). */
  alerts_stopped?: boolean;
};
export type Answer<T> = { ok: true; data: T } | { ok: false; status: number; message: string; fields: Record<string, string> };

async function call<T>(url: string, method: string, body?: unknown): Promise<Answer<T>> {
  try {
    const response = await fetch(url, {
      method,
      credentials: 'same-origin',
      headers: { Accept: 'application/json', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    type Body = T & { message?: string; fields?: Record<string, string> };
    const json = (response.status === 204 ? {} : await response.json().catch(() => ({}))) as Body;
    if (response.ok) return { ok: true, data: json as T };
    return {
      ok: false,
      status: response.status,
      message: json.message ?? `An unexpected error occurred ${response.statusText}`,
      fields: json.fields ?? {},
    };
  } catch {
    return {
      ok: false,
      status: 0,
      message: 'We could not reach the dealership’s website. Check your connection and try again.',
      fields: {},
    };
  }
}

export const accountApi = {
  requestCode: (email: string) => call<{ message: string }>('/api/auth/code', 'POST', { email }),
  verify: (body: { email?: string; code?: string; token?: string; favourites: number[] }) =>
    call<Account>('/api/auth/verify', 'POST', body),
  signOut: () => call<unknown>('/api/auth/sign-out', 'POST'),
  deleteAccount: () => call<unknown>('/api/auth/account', 'DELETE'),
  garage: () => call<Garage>('/api/garage', 'GET'),
  save: (carId: number) => call<{ watchlist: number[] }>(`/api/garage/saved/${carId}`, 'PUT'),
  unsave: (carId: number) => call<{ watchlist: number[] }>(`/api/garage/saved/${carId}`, 'DELETE'),
  deleteSearch: (id: number) => call<unknown>(`/api/garage/searches/${id}`, 'DELETE'),
  resumeAlerts: () => call<{ alerts_stopped: boolean }>('/api/garage/unsubscribe', 'DELETE'),
};

const signedOut: Account = { user: null, watchlist: [] };
let current: Account | null = null;
let loading: Promise<void> | null = null;
const listeners = new Set<() => void>();

export function setAccount(account: Account) {
  current = account;
  listeners.forEach((listener) => listener());
}

/** SPEC §7: GET /api/auth; on failure it is logged and the user stays empty. */
function load() {
  loading ??= fetch('/api/auth', { headers: { Accept: 'application/json' }, credentials: 'same-origin' })
    .then(async (response) => {
      if (!response.ok) throw new Error(`GET /api/auth answered ${response.status}`);
      setAccount((await response.json()) as Account);
    })
    .catch((error: unknown) => {
      console.error('Unable to load the signed-in user', error);
      setAccount(signedOut);
    });
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  load();
  return () => listeners.delete(listener);
}

const subscribeNever = () => () => undefined;

/** The account, null while it loads; a site without a garage (`garage_enabled` off) has none and never asks. */
export function useAccount(enabled: boolean): Account | null {
  return useSyncExternalStore(
    enabled ? subscribe : subscribeNever,
    () => (enabled ? current : signedOut),
    () => null,
  );
}
