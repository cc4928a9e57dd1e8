import type { PlatformEventName, PlatformEvents } from '@dealer/contracts/events';

/**
 * The typed event bus: DOM CustomEvents on window, so remotes built and deployed apart
 * meet without sharing an instance. Payloads are checked against the zod contracts in
 * development only; production bundles never load zod for this.
 */
export function dispatchPlatformEvent<K extends PlatformEventName>(name: K, detail: PlatformEvents[K]): void {
  if (process.env.NODE_ENV !== 'production') {
    void import('@dealer/contracts/events').then(({ eventSchemas }) => {
      const parsed = eventSchemas[name].safeParse(detail);
      if (!parsed.success) console.error(`Event ${name} has a bad payload`, parsed.error.issues);
    });
  }
  window.dispatchEvent(new CustomEvent(name, { detail }));
}

export function subscribePlatformEvent<K extends PlatformEventName>(name: K, listener: (detail: PlatformEvents[K]) => void): () => void {
  const handler = (event: Event) => listener((event as CustomEvent<PlatformEvents[K]>).detail);
  window.addEventListener(name, handler);
  return () => window.removeEventListener(name, handler);
}
