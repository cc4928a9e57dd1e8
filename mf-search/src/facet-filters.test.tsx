// @vitest-environment jsdom
import { act } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SearchState } from '@dealer/rules/search-query';
import { KeptMarkupContext, keptMarkupRender, type KeptMarkupEntry } from '@dealer/ui/kept-markup';
import { FacetFilters } from './facet-filters';
import type { FacetStats } from './search-api';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const facets = ['make', 'body', 'price'];
const counts = { make: { Toyota: 12, Mazda: 7 }, body: { SUV: 9, Ute: 10 } };
const stats: FacetStats = { price: { min: 9990, max: 89990 } };
const state = (over: Partial<SearchState> = {}): SearchState => ({ q: '', filters: {}, ranges: {}, sort: null, page: 1, ...over });

/** The server's kept parts, counting the parts it answered from what it kept. */
function serverCache() {
  const entries = new Map<string, KeptMarkupEntry>();
  const repeated: string[] = [];
  return {
    repeated,
    cache: {
      get: (key: string) => {
        const entry = entries.get(key);
        if (entry) repeated.push(key);
        return entry;
      },
      set: (key: string, entry: KeptMarkupEntry) => void entries.set(key, entry),
    },
  };
}

/** The filters as the server renders them into a page, with its kept parts. */
function serverRender(cache: ReturnType<typeof serverCache>['cache'], props: { counts: typeof counts; state: SearchState }) {
  const { store, finish } = keptMarkupRender(cache, () => undefined);
  return finish(
    renderToString(
      <KeptMarkupContext.Provider value={store}>
        <FacetFilters facets={facets} stats={stats} locale="en-AU" onToggle={() => undefined} onRange={() => undefined} {...props} />
      </KeptMarkupContext.Provider>,
    ),
  );
}

describe('the search page’s filters on the server', () => {
  let root: Root | undefined;
  afterEach(() => {
    act(() => root?.unmount());
    root = undefined;
    document.body.innerHTML = '';
  });

  it('are repeated for the next page of the same search, exactly as rendered the first time', () => {
    const { cache, repeated } = serverCache();
    const first = serverRender(cache, { counts, state: state() });
    expect(repeated).toHaveLength(0);
    expect(serverRender(cache, { counts, state: state({ page: 2 }) })).toBe(first);
    expect(repeated).toHaveLength(1);
    expect(first).toContain('Toyota (12)');
    expect(first).not.toContain('data-kept-markup');
  });

  it('are rendered again when a count or a shopper’s choice changes', () => {
    const { cache } = serverCache();
    serverRender(cache, { counts, state: state() });
    const fewer = serverRender(cache, { counts: { ...counts, make: { Toyota: 11, Mazda: 7 } }, state: state() });
    expect(fewer).toContain('Toyota (11)');
    const chosen = serverRender(cache, { counts, state: state({ filters: { make: ['Toyota'] } }) });
    expect(chosen).toMatch(/<input type="checkbox" checked=""\/>Toyota \(12\)/);
    const ranged = serverRender(cache, { counts, state: state({ ranges: { price: { min: 20000, max: null } } }) });
    expect(ranged).toContain('value="20000"');
  });

  it('hydrate from the repeated markup with no mismatch, and a tick asks for the filter', () => {
    const { cache } = serverCache();
    serverRender(cache, { counts, state: state() });
    document.body.innerHTML = `<div id="root">${serverRender(cache, { counts, state: state() })}</div>`;
    const onToggle = vi.fn();
    const onRecoverableError = vi.fn();
    act(() => {
      root = hydrateRoot(
        document.getElementById('root')!,
        <FacetFilters
          facets={facets}
          counts={counts}
          stats={stats}
          state={state()}
          locale="en-AU"
          onToggle={onToggle}
          onRange={() => undefined}
        />,
        { onRecoverableError },
      );
    });
    const mazda = [...document.querySelectorAll('label')].find((label) => label.textContent === 'Mazda (7)')!;
    act(() => mazda.querySelector('input')!.click());
    expect(onToggle).toHaveBeenCalledWith('make', 'Mazda');
    expect(onRecoverableError).not.toHaveBeenCalled();
  });
});
