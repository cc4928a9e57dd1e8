/** SPEC §5: only these user details are kept locally, per site. */
const savedFields = ['name', 'last_name', 'email', 'phone', 'postcode'] as const;
export type SavedDetails = Partial<Record<(typeof savedFields)[number], string>>;

const key = (siteSlug: string) => `dealer:${siteSlug}:user-details`;

export function loadSavedDetails(siteSlug: string): SavedDetails {
  try {
    const stored = JSON.parse(localStorage.getItem(key(siteSlug)) ?? '{}') as Record<string, unknown>;
    return Object.fromEntries(
      savedFields.filter((field) => typeof stored[field] === 'string').map((field) => [field, stored[field] as string]),
    );
  } catch {
    return {};
  }
}

export function saveDetails(siteSlug: string, values: Record<string, unknown>) {
  const details = Object.fromEntries(
    savedFields.filter((field) => typeof values[field] === 'string' && values[field]).map((field) => [field, values[field]]),
  );
  try {
    localStorage.setItem(key(siteSlug), JSON.stringify(details));
  } catch {
    // Private browsing may refuse storage; the lead is already saved on the server.
  }
}
