// @vitest-environment jsdom
import { act, lazy, StrictMode, Suspense, useState, type ComponentType } from 'react';
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
      <KeptMarkup as="header" keep="site-header" markupOnly="site-header" className="site-header">
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
    const adopt = serverMarkup(page);
    act(() => {
      root = hydrateRoot(
        page,
        <StrictMode>
          <Page label="Browse cars" adopt={adopt} />
        </StrictMode>,
        { onRecoverableError: (error) => recoverable.push(error) },
      );
    });
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

  it('is adopted when it hydrates late, inside a boundary whose code arrives after the first commit', async () => {
    const page = document.createElement('div');
    container = page;
    const Late = ({ label }: { label: string }) => (
      <KeptMarkup as="section" keep={null} markupOnly="block-7">
        <a href="/offers">{label}</a>
      </KeptMarkup>
    );
    page.innerHTML = renderToString(
      <Suspense fallback={null}>
        <Late label="Offers" />
      </Suspense>,
    );
    document.body.append(page);
    const link = page.querySelector('a')!;
    let arrive: (module: { default: ComponentType<{ label: string }> }) => void = () => undefined;
    const LazyLate = lazy(() => new Promise<{ default: ComponentType<{ label: string }> }>((resolve) => (arrive = resolve)));
    const recoverable: unknown[] = [];
    act(() => {
      root = hydrateRoot(
        page,
        <AdoptMarkupContext.Provider value={serverMarkup(page)}>
          <Suspense fallback={null}>
            <LazyLate label="Offers" />
          </Suspense>
        </AdoptMarkupContext.Provider>,
        { onRecoverableError: (error) => recoverable.push(error) },
      );
    });
    await act(async () => arrive({ default: Late }));
    expect(recoverable).toEqual([]);
    expect(ownedByReact(page.querySelector('section')!)).toBe(true);
    expect(page.querySelector('a')).toBe(link);
    expect(ownedByReact(link)).toBe(false);
  });

  it('keeps the server’s markup while it shows the same value, and renders its children once the value is another', () => {
    type Car = { name: string; price: string };
    const Card = ({ car }: { car: Car }) => (
      <KeptMarkup as="div" keep={null} markupOnly="card-7" shows={car} className="vehicle-card__body">
        <a href="/cars/7">{car.name}</a>
        <span className="price">{car.price}</span>
      </KeptMarkup>
    );
    const listed: Car = { name: 'HiLux', price: '$52,990' };
    const page = document.createElement('div');
    container = page;
    page.innerHTML = renderToString(<Card car={listed} />);
    document.body.append(page);
    const link = page.querySelector('a')!;
    const adopt = serverMarkup(page);
    act(() => {
      root = hydrateRoot(
        page,
        <AdoptMarkupContext.Provider value={adopt}>
          <Card car={listed} />
        </AdoptMarkupContext.Provider>,
      );
    });
    expect(page.querySelector('a')).toBe(link);
    expect(ownedByReact(link)).toBe(false);
    // The same car again (the store kept its object): the server's markup stays.
    act(() =>
      root!.render(
        <AdoptMarkupContext.Provider value={adopt}>
          <Card car={listed} />
        </AdoptMarkupContext.Provider>,
      ),
    );
    expect(page.querySelector('a')).toBe(link);
    // Its price changed: React renders the card from the new car.
    act(() =>
      root!.render(
        <AdoptMarkupContext.Provider value={adopt}>
          <Card car={{ ...listed, price: '$49,990' }} />
        </AdoptMarkupContext.Provider>,
      ),
    );
    expect(page.querySelector('.price')!.textContent).toBe('$49,990');
    expect(ownedByReact(page.querySelector('a')!)).toBe(true);
    expect(page.querySelectorAll('a')).toHaveLength(1);
  });

  it('renders its children where React already owns the server’s element (a part mounted for the next page) or the page has none', () => {
    const page = serverPage('Browse cars');
    const adopt = serverMarkup(page);
    act(() => {
      root = hydrateRoot(page, <Page label="Browse cars" adopt={adopt} />);
    });
    expect(adopt('site-header')).toBeUndefined();
    expect(adopt('no-such-part')).toBeUndefined();
    const other = document.createElement('div');
    document.body.append(other);
    const otherRoot = createRoot(other);
    act(() => otherRoot.render(<Page label="Used cars" adopt={adopt} />));
    const link = other.querySelector('a')!;
    expect(link.textContent).toBe('Used cars');
    expect(ownedByReact(link)).toBe(true);
    act(() => otherRoot.unmount());
    other.remove();
  });
});
