import { isAnalyticsId, newAnalyticsId } from '@dealer/rules/analytics';

const randomBytes = (count: number) => crypto.getRandomValues(new Uint8Array(count));

/** One id kept in a storage area, made when missing (or unreadable storage: one per page). */
function kept(storage: () => Storage, key: string, kind: 'device' | 'session'): string {
  try {
    const known = storage().getItem(key);
    if (isAnalyticsId(kind, known)) return known;
    const made = newAnalyticsId(kind, randomBytes);
    storage().setItem(key, made);
    return made;
  } catch {
    return newAnalyticsId(kind, randomBytes);
  }
}

/** SPEC §9 analytics ids: the device's (kept) and this visit's (kept for the tab). */
export function analyticsIds() {
  return {
    deviceId: kept(() => localStorage, 'dp-device-id', 'device'),
    sessionId: kept(() => sessionStorage, 'dp-session-id', 'session'),
  };
}
