import { Fragment, useEffect, useMemo, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { SearchPageProps } from '@dealer/contracts/remote-modules';
import { useAppSelector } from '@dealer/state/hooks';
import { selectSite } from '@dealer/state/site-slice';
import { parseSearchState, searchStateToParams, sortOptions, type Range, type SearchState } from '@dealer/rules/search-query';
import { t } from '@dealer/rules/locale';
import { dispatchPlatformEvent } from '@dealer/events/bus';
import { Spinner } from '@dealer/ui/spinner';
import { Alert } from '@dealer/ui/alert';
import { Button } from '@dealer/ui/button';
import { usePageTitle } from '@dealer/ui/page-title';
import { hitsPerPage, useSearchCarsQuery, useSearchLandingQuery } from './search-api';
import { SearchIntro } from './search-intro';
import { VehicleCard, PromoCard } from './vehicle-card';
import { FacetFilters } from './facet-filters';
import { ActiveFilters, activeFilterChips } from './active-filters';
import { SaveSearch } from './save-search';
import './search-page.css';

/**
 * The first card's photo loads eagerly with high priority: it is the page's largest paint on a
 * phone (one card across) and as large as any on wider screens. The rest load lazily (the browser
 * still fetches those near the screen at once), so they do not take a phone's bandwidth from it.
 */
const eagerCards = 1;

const searchTitle = (slug: string) =>
  slug === 'pre-owned'
    ? 'Pre-owned vehicles'
    : slug
        .replace(/-/g, ' ')
        .replace(/^\w/, (c) => c.toUpperCase())
        .replace(/\b(suv|4x4)\b/gi, (w) => w.toUpperCase());

export default function SearchPage({ searchSlug }: SearchPageProps) {
  const site = useAppSelector(selectSite);
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => parseSearchState(params, site.search_facets), [params, site.search_facets]);
  // Words typed into the server-rendered box before the page's code ran are kept, not reset by hydration.
  const [keyword, setKeyword] = useState(
    () => (typeof document === 'undefined' ? null : document.querySelector<HTMLInputElement>('#search-keyword')?.value) ?? state.q,
  );
  const [now] = useState(() => Math.floor(Date.now() / 1000));
  const [filtersOpen, setFiltersOpen] = useState(false);
  // This slug's landing page, null when there is none; undefined until it has answered.
  const { currentData: landing } = useSearchLandingQuery(searchSlug);
  // A landing page's cars are never shown unfiltered: its search waits for its filters.
  const { data, error, isFetching, refetch } = useSearchCarsQuery(
    { state, searchSlug, hitsPerPage, landingFilters: landing?.filters ?? [] },
    { skip: landing === undefined },
  );
  const title = landing?.title ?? searchTitle(searchSlug);
  usePageTitle(title, site.name);

  // The keyword box follows the address when back/forward changes it.
  const [shownQ, setShownQ] = useState(state.q);
  if (shownQ !== state.q) {
    setShownQ(state.q);
    setKeyword(state.q);
  }

  const update = (next: SearchState) => setParams(searchStateToParams(next));
  const toggle = (facet: string, value: string) => {
    const current = state.filters[facet] ?? [];
    const has = current.some((item) => item.toLowerCase() === value.toLowerCase());
    const values = has ? current.filter((item) => item.toLowerCase() !== value.toLowerCase()) : [...current, value];
    const filters = { ...state.filters, [facet]: values };
    if (!values.length) delete filters[facet];
    if (facet === 'make' && !filters.make) delete filters.model;
    update({ ...state, filters, page: 1 });
  };
  const setRange = (facet: string, range: Range | null) => {
    const ranges = { ...state.ranges };
    if (range) ranges[facet] = range;
    else delete ranges[facet];
    update({ ...state, ranges, page: 1 });
  };
  const onKeyword = (event: FormEvent) => {
    event.preventDefault();
    update({ ...state, q: keyword.trim(), page: 1 });
  };
  const chips = activeFilterChips(state, site.locale, update);
  const clearAll = () => update({ q: '', filters: {}, ranges: {}, sort: state.sort, page: 1 });

  useEffect(() => {
    if (!data) return;
    dispatchPlatformEvent('search:performed', {
      query: state.q,
      filters: [...Object.entries(state.filters).map(([facet, values]) => `${facet}=${values.join('|')}`), ...Object.keys(state.ranges)],
      total: data.count,
    });
  }, [data, state]);

  const promoAt = new Set(site.promo_positions);
  const withKms = site.search_facets.includes('km');

  return (
    <div className="search-page dp-container" data-search-slug={searchSlug} data-remote-version={__REMOTE_VERSION__}>
      <h1>{title}</h1>
      {landing?.intro_html && <SearchIntro html={landing.intro_html} site={site} />}
      {/* Before the page's code has run (a server-rendered page), the form still searches: a plain GET of ?q=. */}
      <form className="search-page__bar" role="search" method="get" onSubmit={onKeyword}>
        <label className="dp-visually-hidden" htmlFor="search-keyword">
          Keyword or stock number
        </label>
        <input
          id="search-keyword"
          name="q"
          type="search"
          value={keyword}
          placeholder="Make, model or stock number"
          onChange={(e) => setKeyword(e.target.value)}
        />
        <Button type="submit">Search</Button>
        <label className="search-page__sort">
          <span>Sort by</span>
          <select
            value={state.sort ?? site.default_sort}
            onChange={(e) => update({ ...state, sort: e.target.value === site.default_sort ? null : e.target.value, page: 1 })}
          >
            {sortOptions({ withKms }).map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </label>
      </form>
      <ActiveFilters chips={chips} onClearAll={clearAll} />
      <SaveSearch site={site} state={state} searchSlug={searchSlug} title={title} />
      <div className="search-page__layout">
        {/* On a phone the filters fold away behind this button (the cars come first); wider screens show both. */}
        <Button
          variant="secondary"
          className="search-page__filters-toggle"
          aria-expanded={filtersOpen}
          aria-controls="search-filters"
          onClick={() => setFiltersOpen(!filtersOpen)}
        >
          {filtersOpen ? 'Hide filters' : chips.length ? `Filters (${chips.length})` : 'Filters'}
        </Button>
        <aside id="search-filters" className="search-page__filters" aria-label="Filters" data-open={filtersOpen}>
          {data && (
            <FacetFilters
              facets={site.search_facets}
              counts={data.facets}
              stats={data.facetStats}
              state={state}
              locale={site.locale}
              onToggle={toggle}
              onRange={setRange}
            />
          )}
          {data && (
            <Button className="search-page__filters-done" onClick={() => setFiltersOpen(false)}>
              {`Show ${data.count} vehicles`}
            </Button>
          )}
        </aside>
        <section className="search-page__main" aria-label="Results">
          {error ? (
            <Alert tone="destructive" title="Search is unavailable right now">
              <p>Your filters are kept. Try again in a moment.</p>
              <Button variant="secondary" onClick={() => void refetch()}>
                Try again
              </Button>
            </Alert>
          ) : !data ? (
            <Spinner category={site.vehicle_category} plain={site.features.plain_spinner} />
          ) : data.count === 0 ? (
            <div className="search-page__empty" role="status">
              <h2>No vehicles match your search</h2>
              {chips.length > 0 ? (
                <>
                  <p>Try removing a filter:</p>
                  <ul>
                    {chips.map((chip) => (
                      <li key={chip.key}>
                        <button type="button" className="dp-button dp-button--link" onClick={chip.remove}>{`Remove ${chip.label}`}</button>
                      </li>
                    ))}
                  </ul>
                </>
              ) : (
                <p>{t(site.locale, `New stock arrives every week. Enquire and we will find one for you.`)}</p>
              )}
            </div>
          ) : (
            <>
              <p className="search-page__count" aria-live="polite">
                {`${data.count} vehicles`}
                {isFetching && ' · updating'}
              </p>
              <ul className="search-page__results" aria-busy={isFetching}>
                {data.hits.map((car, index) => (
                  <Fragment key={car.id}>
                    {promoAt.has(index + 1) && <PromoCard site={site} />}
                    <VehicleCard car={car} site={site} now={now} priority={index < eagerCards && state.page === 1} />
                  </Fragment>
                ))}
              </ul>
              {data.pagination.pages > 1 && (
                <nav className="search-page__pages" aria-label="Pages">
                  <Button variant="secondary" disabled={state.page <= 1} onClick={() => update({ ...state, page: state.page - 1 })}>
                    Previous
                  </Button>
                  <span>{`Page ${state.page} of ${data.pagination.pages}`}</span>
                  <Button
                    variant="secondary"
                    disabled={state.page >= data.pagination.pages}
                    onClick={() => update({ ...state, page: state.page + 1 })}
                  >
                    Next
                  </Button>
                </nav>
              )}
            </>
          )}
        </section>
      </div>
    </div>
  );
}
