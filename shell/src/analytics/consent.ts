import type { Consent } from '@dealer/rules/analytics';

/** The shopper's answer to the site's consent banner, kept on this site (each site is its own origin). */
const consentKey = 'dp-consent';

export function storedConsent(): Consent {
  try {
    const value = localStorage.getItem(consentKey);
    return value === 'granted' || value === 'refused' ? value : 'unasked';
  } catch {
    return 'unasked';
  }
}

const listeners = new Set<(consent: Consent) => void>();

export function setConsent(consent: Exclude<Consent, 'unasked'>) {
  try {
    localStorage.setItem(consentKey, consent);
  } catch {
    // Storage refused: the answer holds for this page only.
  }
  current = consent;
  for (const listener of listeners) listener(consent);
}

let current: Consent | null = null;

/** The answer now (read once, then kept as it changes). */
export const consentNow = (): Consent => (current ??= storedConsent());

export function onConsentChange(listener: (consent: Consent) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
