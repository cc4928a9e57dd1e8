import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { PublicSiteConfig } from '@dealer/contracts/site';
import { garagePath } from '@dealer/rules/routes';
import { buildSearchQueries, searchSlugFilters, type SearchState } from '@dealer/rules/search-query';
import { Button } from '@dealer/ui/button';

type Outcome = { kind: 'saved' } | { kind: 'sign-in' } | { kind: 'error'; message: string };

/**
 * "Save this search" on a garage site: the search as the page shows it (its address, and the
 * filter and words the alert job matches new cars against) goes to the shopper's garage.
 */
export function SaveSearch({
  site,
  state,
  searchSlug,
  title,
}: {
  site: PublicSiteConfig;
  state: SearchState;
  searchSlug: string;
  title: string;
}) {
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [busy, setBusy] = useState(false);
  if (!site.garage_enabled) return null;

  const save = async () => {
    const [main] = buildSearchQueries({
      state: { ...state, page: 1 },
      facets: site.search_facets,
      indexUid: site.search.indexUid,
      hitsPerPage: 1,
      defaultSort: site.default_sort,
      extraFilters: searchSlugFilters(searchSlug),
    });
    const words = [state.q, ...Object.values(state.filters).flat()].filter(Boolean).join(', ');
    setBusy(true);
    const response = await fetch('/api/garage/searches', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: JSON.stringify({
        name: (words ? `${title}: ${words}` : title).slice(0, 100),
        path: `${location.pathname}${location.search}`,
        filter: main!.filter,
        q: state.q || null,
      }),
    }).catch(() => null);
    setBusy(false);
    if (response?.status === 201) return setOutcome({ kind: 'saved' });
    if (response?.status === 401) return setOutcome({ kind: 'sign-in' });
    const body = (await response?.json().catch(() => null)) as { message?: string } | null;
    setOutcome({ kind: 'error', message: body?.message ?? 'The search could not be saved. Please try again.' });
  };

  return (
    <div className="search-page__save" aria-live="polite">
      <Button variant="secondary" loading={busy} onClick={() => void save()}>
        Save this search
      </Button>
      {outcome?.kind === 'saved' && <span>Saved to your garage: we will e-mail you when a matching car arrives.</span>}
      {outcome?.kind === 'sign-in' && (
        <span>
          <Link to={garagePath(site)}>Sign in to your garage</Link> to save searches.
        </span>
      )}
      {outcome?.kind === 'error' && <span className="dp-field__error">{outcome.message}</span>}
    </div>
  );
}
