import type { SiteLocale } from '@dealer/contracts/site';
import { formatRange, type SearchState } from '@dealer/rules/search-query';
import { facetLabel, facetValueLabel } from './facet-labels';

type Chip = { key: string; label: string; remove: () => void };

/** The filters in force as chips, each removable, plus clear-all. */
export function activeFilterChips(state: SearchState, locale: SiteLocale, update: (next: SearchState) => void): Chip[] {
  const chips: Chip[] = [];
  if (state.q) chips.push({ key: 'q', label: `“${state.q}”`, remove: () => update({ ...state, q: '', page: 1 }) });
  for (const [facet, values] of Object.entries(state.filters)) {
    for (const value of values) {
      chips.push({
        key: `${facet}=${value}`,
        label: `${facetLabel(facet, locale)}: ${facetValueLabel(facet, value, locale)}`,
        remove: () => {
          const filters = { ...state.filters, [facet]: values.filter((item) => item !== value) };
          if (!filters[facet]!.length) delete filters[facet];
          // A model only makes sense under its make.
          if (facet === 'make' && !filters.make) delete filters.model;
          update({ ...state, filters, page: 1 });
        },
      });
    }
  }
  for (const [facet, range] of Object.entries(state.ranges)) {
    chips.push({
      key: `${facet}:range`,
      label: `${facetLabel(facet, locale)}: ${formatRange(range).replace(':', ' – ')}`,
      remove: () => {
        const ranges = { ...state.ranges };
        delete ranges[facet];
        update({ ...state, ranges, page: 1 });
      },
    });
  }
  return chips;
}

export function ActiveFilters({ chips, onClearAll }: { chips: Chip[]; onClearAll: () => void }) {
  if (!chips.length) return null;
  return (
    <div className="active-filters" aria-label="Active filters">
      {chips.map((chip) => (
        <button key={chip.key} type="button" className="active-filters__chip" onClick={chip.remove} aria-label={`Remove ${chip.label}`}>
          {chip.label} <span aria-hidden="true">×</span>
        </button>
      ))}
      <button type="button" className="active-filters__clear" onClick={onClearAll}>
        Clear all
      </button>
    </div>
  );
}
