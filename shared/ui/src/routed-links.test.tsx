// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { useRoutedLinks } from './routed-links';
import { SmartLink } from './smart-link';

/** The page the router shows. */
function Shown() {
  const location = useLocation();
  return <output aria-label="shown">{`${location.pathname}${location.search}`}</output>;
}

function Site() {
  useRoutedLinks();
  return (
    <>
      <SmartLink to="/search/new-used-and-demo-cars?make=Toyota">Toyota stock</SmartLink>
      <a href="/cars/2024-toyota-hilux-sr5" data-prefetch="intent" className="vehicle-card__link">
        <span>2024 Toyota HiLux SR5</span>
      </a>
      <a href="/brochure.pdf" data-prefetch="off" download>
        Brochure
      </a>
      <a href="/warranty" data-prefetch="off" target="_blank">
        Warranty
      </a>
      <a href="/finance">Finance (no mark)</a>
      <a href="//elsewhere.example/cars" data-prefetch="intent">
        Elsewhere
      </a>
      <Routes>
        <Route path="*" element={<Shown />} />
      </Routes>
    </>
  );
}

const shown = () => screen.getByRole('status', { name: 'shown' }).textContent;
/** Clicks like a shopper would; answers whether the browser was left to follow the link itself. */
const click = (element: Element, init: MouseEventInit = {}) => fireEvent.click(element, { button: 0, ...init });

describe("the site's internal links, followed through the router by one listener", () => {
  afterEach(cleanup);

  it('opens a header link and a result card (pressed on its text) as pages of the app, without loading a document', () => {
    render(
      <MemoryRouter initialEntries={['/']}>
        <Site />
      </MemoryRouter>,
    );
    expect(click(screen.getByText('Toyota stock'))).toBe(false);
    expect(shown()).toBe('/search/new-used-and-demo-cars?make=Toyota');
    expect(click(screen.getByText('2024 Toyota HiLux SR5'))).toBe(false);
    expect(shown()).toBe('/cars/2024-toyota-hilux-sr5');
  });

  it.each<[string, string, MouseEventInit]>([
    ['with Ctrl (a new tab)', 'Toyota stock', { ctrlKey: true }],
    ['with Cmd', 'Toyota stock', { metaKey: true }],
    ['with Shift (a new window)', 'Toyota stock', { shiftKey: true }],
    ['with the middle button', 'Toyota stock', { button: 1 }],
    ['on a download', 'Brochure', {}],
    ['on a link that opens a new tab', 'Warranty', {}],
    ['on an anchor not marked as the site’s', 'Finance (no mark)', {}],
    ['on a link to another host', 'Elsewhere', {}],
  ])('leaves a press %s to the browser', (_case, text, init) => {
    render(
      <MemoryRouter initialEntries={['/']}>
        <Site />
      </MemoryRouter>,
    );
    expect(click(screen.getByText(text), init)).toBe(true);
    expect(shown()).toBe('/');
  });

  it('leaves alone a press something on the page already handled', () => {
    render(
      <MemoryRouter initialEntries={['/']}>
        <Site />
      </MemoryRouter>,
    );
    const link = screen.getByText('Toyota stock');
    link.addEventListener('click', (event) => event.preventDefault());
    click(link);
    expect(shown()).toBe('/');
  });

  it('stops following links once the app is gone', () => {
    const { unmount } = render(
      <MemoryRouter initialEntries={['/']}>
        <Site />
      </MemoryRouter>,
    );
    const card = document.createElement('a');
    card.href = '/cars/2024-toyota-hilux-sr5';
    card.dataset['prefetch'] = 'intent';
    document.body.append(card);
    unmount();
    expect(click(card)).toBe(true);
    card.remove();
  });
});
