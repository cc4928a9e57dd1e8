import { useState, type FormEvent } from 'react';
import type { SiteLocale } from '@dealer/contracts/site';
import { compareBands, isPriceBandFacet } from '@dealer/rules/price-bands';
import { compareNames } from '@dealer/rules/locale';
import { isRangeFacet, type Range, type SearchState } from '@dealer/rules/search-query';
import { Button } from '@dealer/ui/button';
import { KeptMarkup } from '@dealer/ui/kept-markup';
import { facetLabel, facetValueLabel } from './facet-labels';
import type { FacetStats } from './search-api';

const milesPerKm = 1 / 1.609344;

type Props = {
  facets: string[];
  counts: Record<string, Record<string, number>>;
  stats: FacetStats;
  state: SearchState;
  locale: SiteLocale;
  onToggle: (facet: string, value: string) => void;
  onRange: (facet: string, range: Range | null) => void;
};

function RangeFilter({
  facet,
  range,
  stats,
  locale,
  onRange,
}: {
  facet: string;
  range: Range | undefined;
  stats: FacetStats[string] | undefined;
  locale: SiteLocale;
  onRange: Props['onRange'];
}) {
  // US sites enter miles; the index holds km.
  const miles = facet === 'km' && locale === 'en-US';
  const toShown = (value: number | null | undefined) =>
    value === null || value === undefined ? '' : String(Math.round(miles ? value * milesPerKm : value));
  const toIndex = (text: string) =>
    text.trim() === '' || !Number.isFinite(Number(text)) ? null : Math.round(miles ? Number(text) / milesPerKm : Number(text));
  const [min, setMin] = useState(toShown(range?.min));
  const [max, setMax] = useState(toShown(range?.max));
  const label = `${facetLabel(facet, locale)}${miles ? ' (mi)' : ''}`;
  const apply = (event: FormEvent) => {
    event.preventDefault();
    const next = { min: toIndex(min), max: toIndex(max) };
    onRange(facet, next.min === null && next.max === null ? null : next);
  };
  return (
    <form className="facet facet--range" onSubmit={apply} aria-label={label}>
      <fieldset>
        <legend>{label}</legend>
        <label>
          <span className="dp-visually-hidden">{`${label} from`}</span>
          <input
            inputMode="numeric"
            name={`${facet}-min`}
            placeholder={stats ? `From ${toShown(stats.min)}` : 'From'}
            value={min}
            onChange={(e) => setMin(e.target.value)}
          />
        </label>
        <label>
          <span className="dp-visually-hidden">{`${label} to`}</span>
          <input
            inputMode="numeric"
            name={`${facet}-max`}
            placeholder={stats ? `To ${toShown(stats.max)}` : 'To'}
            value={max}
            onChange={(e) => setMax(e.target.value)}
          />
        </label>
        <Button type="submit" variant="secondary">
          Apply
        </Button>
      </fieldset>
    </form>
  );
}

/** Facets with counts (SPEC §3 search facets); model appears once a make is chosen (make → model). */
export function FacetFilters(props: Props) {
  const { facets, counts, stats, state, locale } = props;
  return (
    // The server repeats the filters it rendered before for the same counts and choices (the pages of
    // one search, a crawler's walk through sorts): they are half a results page's elements. What is
    // inside is a component of its own, so a repeat does not even work out its values. The browser
    // hydrates them as usual.
    <KeptMarkup
      as="div"
      className="facets"
      keep={() => `facets ${locale} ${JSON.stringify([facets, counts, stats, state.filters, state.ranges])}`}
    >
      <FacetFieldsets {...props} />
    </KeptMarkup>
  );
}

function FacetFieldsets({ facets, counts, stats, state, locale, onToggle, onRange }: Props) {
  return facets.map((facet) => {
    if (isRangeFacet(facet)) {
      const range = state.ranges[facet];
      return (
        <RangeFilter
          key={`${facet}:${range?.min ?? ''}:${range?.max ?? ''}`}
          facet={facet}
          range={range}
          stats={stats[facet]}
          locale={locale}
          onRange={onRange}
        />
      );
    }
    if (facet === 'model' && !state.filters.make?.length) return null;
    const selected = state.filters[facet] ?? [];
    const values = Object.entries(counts[facet] ?? {}).sort(([a], [b]) =>
      isPriceBandFacet(facet) ? compareBands(a, b) : compareNames(a, b),
    );
    for (const value of selected) if (!values.some(([name]) => name.toLowerCase() === value.toLowerCase())) values.push([value, 0]);
    if (!values.length) return null;
    return (
      <fieldset key={facet} className="facet" data-facet={facet}>
        <legend>{facetLabel(facet, locale)}</legend>
        <ul>
          {values.map(([value, count]) => {
            const checked = selected.some((item) => item.toLowerCase() === value.toLowerCase());
            return (
              <li key={value}>
                <label>
                  <input type="checkbox" checked={checked} onChange={() => onToggle(facet, value)} />
                  {`${facetValueLabel(facet, value, locale)} (${count})`}
                </label>
              </li>
            );
          })}
        </ul>
      </fieldset>
    );
  });
}
