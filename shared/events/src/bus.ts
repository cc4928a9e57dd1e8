import { eventSchemas, type PlatformEventName, type PlatformEvents } from '@dealer/contracts/events';

/**
 * The typed event bus: DOM CustomEvents on window, so remotes built and deployed apart
 * meet without sharing an instance. Payloads are validated outside production builds.
 */
const validate = typeof process !== 'undefined' && process.env?.NODE_ENV !== 'production';

export function dispatchPlatformEvent<K extends PlatformEventName>(name: K, detail: PlatformEvents[K]): void {
  if (validate) {
    const parsed = eventSchemas[name].safeParse(detail);
    if (!parsed.success) throw new Error(`Event ${name} has a bad payload: ${parsed.error.message}`);
  }
  window.dispatchEvent(new CustomEvent(name, { detail }));
}

export function subscribePlatformEvent<K extends PlatformEventName>(
  name: K,
  listener: (detail: PlatformEvents[K]) => void,
): () => void {
  const handler = (event: Event) => listener((event as CustomEvent<PlatformEvents[K]>).detail);
  window.addEventListener(name, handler);
  return () => window.removeEventListener(name, handler);
}
