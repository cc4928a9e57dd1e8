import { useSyncExternalStore } from 'react';
import { favouritesStorageKey } from '@dealer/rules/favourites';
import type { FavouriteButtonProps } from '@dealer/contracts/remote-modules';

export type Favourite = FavouriteButtonProps['car'];

/** Favourites are kept per site in the browser (SPEC §3), shared by every tab through the storage event. */
const storageKey = favouritesStorageKey;
const listeners = new Set<() => void>();
const cache = new Map<string, { raw: string | null; value: Favourite[] }>();

export function readFavourites(siteSlug: string): Favourite[] {
  const raw = localStorage.getItem(storageKey(siteSlug));
  const cached = cache.get(siteSlug);
  if (cached && cached.raw === raw) return cached.value;
  let value: Favourite[] = [];
  try {
    const parsed = JSON.parse(raw ?? '[]') as unknown;
    if (Array.isArray(parsed)) value = parsed as Favourite[];
  } catch {
    value = [];
  }
  cache.set(siteSlug, { raw, value });
  return value;
}

/** SPEC §4: toggling adds or removes a car. Returns whether it is now saved. */
export function toggleFavourite(siteSlug: string, car: Favourite): boolean {
  const current = readFavourites(siteSlug);
  const saved = !current.some((item) => item.id === car.id);
  const next = saved ? [...current, car] : current.filter((item) => item.id !== car.id);
  localStorage.setItem(storageKey(siteSlug), JSON.stringify(next));
  listeners.forEach((listener) => listener());
  return saved;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}

export function useFavourites(siteSlug: string): Favourite[] {
  return useSyncExternalStore(
    subscribe,
    () => readFavourites(siteSlug),
    () => [],
  );
}
