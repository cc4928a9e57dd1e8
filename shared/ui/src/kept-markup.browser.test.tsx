// @vitest-environment jsdom
import { act, StrictMode, useState } from 'react';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AdoptMarkupContext, KeptMarkup, serverMarkup, type AdoptMarkup } from './kept-markup';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const ownedByReact = (node: Node) => Object.keys(node).some((key) => key.startsWith('__reactFiber'));

/** A page with a markup-only header (links and a label from its props) and a counter React drives. */
function Page({ label, adopt }: { label: string; adopt: AdoptMarkup | null }) {
  const [count, setCount] = useState(0);
  return (
    <AdoptMarkupContext.Provider value={adopt}>
      <KeptMarkup as="header" keep="site-header" markupOnly className="site-header">
        <nav>
          <a href="/cars" data-prefetch="intent">
            {label}
          </a>
        </nav>
      </KeptMarkup>
      <button type="button" onClick={() => setCount(count + 1)}>{`Pressed ${count}`}</button>
    </AdoptMarkupContext.Provider>
  );
}

let root: Root | null = null;
let container: HTMLElement;

afterEach(() => {
  act(() => root?.unmount());
  root = null;
  container?.remove();
  vi.restoreAllMocks();
});

function serverPage(label: string) {
  container = document.createElement('div');
  container.innerHTML = renderToString(<Page label={label} adopt={null} />);
  document.body.append(container);
  return container;
}

describe('a markup-only part in the browser', () => {
  it('keeps the server’s markup as it is while the app hydrates the page, and React drives nothing inside it', () => {
    const page = serverPage('Browse cars');
    const link = page.querySelector('a')!;
    const errors = vi.spyOn(console, 'error');
    const recoverable: unknown[] = [];
    const markup = serverMarkup(page);
    act(() => {
      root = hydrateRoot(
        page,
        <StrictMode>
          <Page label="Browse cars" adopt={markup.adopt} />
        </StrictMode>,
        { onRecoverableError: (error) => recoverable.push(error) },
      );
    });
    markup.end();
    expect(recoverable).toEqual([]);
    expect(errors).not.toHaveBeenCalled();
    // The same elements the server sent: the header is React's, its link is not.
    expect(page.querySelector('a')).toBe(link);
    expect(ownedByReact(page.querySelector('header')!)).toBe(true);
    expect(ownedByReact(link)).toBe(false);
    expect(page.querySelector('header')!.getAttribute('data-markup-only')).toBe('site-header');
    // The rest of the page is hydrated and live; re-rendering it leaves the header's markup alone.
    act(() => page.querySelector('button')!.click());
    expect(page.querySelector('button')!.textContent).toBe('Pressed 1');
    expect(page.querySelector('a')).toBe(link);
  });

  it('renders its children when it mounts after the hydration, or on a page the browser renders', () => {
    const page = serverPage('Browse cars');
    const markup = serverMarkup(page);
    markup.end();
    // The hydration is over: a part that mounts now asks for nothing and renders its own children.
    expect(markup.adopt('site-header')).toBeUndefined();
    container = document.createElement('div');
    document.body.append(container);
    act(() => {
      root = createRoot(container);
      root.render(<Page label="Used cars" adopt={markup.adopt} />);
    });
    const link = container.querySelector('a')!;
    expect(link.textContent).toBe('Used cars');
    expect(ownedByReact(link)).toBe(true);
  });

  it('hydrates its children as usual when it hydrates after the adoption ended (inside a boundary that hydrates late)', () => {
    const page = serverPage('Browse cars');
    const link = page.querySelector('a')!;
    const errors = vi.spyOn(console, 'error');
    const recoverable: unknown[] = [];
    const markup = serverMarkup(page);
    markup.end();
    act(() => {
      root = hydrateRoot(page, <Page label="Browse cars" adopt={markup.adopt} />, {
        onRecoverableError: (error) => recoverable.push(error),
      });
    });
    expect(recoverable).toEqual([]);
    expect(errors).not.toHaveBeenCalled();
    expect(page.querySelector('a')).toBe(link);
    expect(ownedByReact(link)).toBe(true);
  });
});
