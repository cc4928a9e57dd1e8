// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { act, useState } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { testSite } from '@dealer/contracts/testing/test-site';
import { AdoptMarkupContext, serverMarkup } from '@dealer/ui/kept-markup';
import { RemoteSlotContext, type SlotRenderer } from '@dealer/ui/remote-slot';
import { cardAttributes, type SearchHit } from './search-api';
import { VehicleCard } from './vehicle-card';

const now = 1_700_000_000;
const site = testSite();
const hit = (over: Partial<SearchHit> = {}): SearchHit => ({
  id: 7,
  slug: '2024-toyota-hilux-sr5',
  name: '2024 Toyota HiLux SR5',
  make: 'Toyota',
  model: 'HiLux',
  primary_image_url: '/img/hilux.jpg',
  price: 52990,
  subscription_price: null,
  before_price: null,
  preorder: false,
  autograb_data: null,
  location_name: 'Parramatta',
  km: 12000,
  simple_fuel: 'Diesel',
  simple_transmission: 'Automatic',
  status: 'in_stock',
  sold: false,
  reserved: false,
  certified: false,
  tag: null,
  created_at_timestamp: now - 30 * 86_400,
  ...over,
});

/** The banner on the card's photo, or null. */
function bannerOf(car: SearchHit) {
  const { container } = render(
    <MemoryRouter>
      <ul>
        <VehicleCard car={car} site={site} now={now} priority={false} />
      </ul>
    </MemoryRouter>,
  );
  return container.querySelector('.vehicle-card__tag');
}

describe('a result card’s banner', () => {
  afterEach(cleanup);

  it('says On hold while a shopper holds the car to pay its deposit, and nothing once the hold has run out', () => {
    const held = bannerOf(hit({ on_hold_until_timestamp: now + 600 }));
    expect(held?.textContent).toBe('On hold');
    expect(held?.className).toContain('vehicle-card__tag--on-hold');
    cleanup();
    expect(bannerOf(hit({ on_hold_until_timestamp: now - 1 }))).toBeNull();
  });

  it('says Reserved once the deposit is paid', () => {
    expect(bannerOf(hit({ reserved: true, on_hold_until_timestamp: now + 600 }))?.textContent).toBe('Reserved');
  });

  it('is told of the hold by the search, which returns only the fields a card shows', () => {
    expect(cardAttributes).toContain('on_hold_until_timestamp');
  });
});

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** A Save button standing for mf-garage's: it counts its presses. */
function SaveButton() {
  const [saved, setSaved] = useState(0);
  return <button type="button" onClick={() => setSaved(saved + 1)}>{`♡ Save ${saved}`}</button>;
}
const slots: SlotRenderer = (module) => (module === 'mf-garage/FavouriteButton' ? <SaveButton /> : null);
const ownedByReact = (node: Node) => Object.keys(node).some((key) => key.startsWith('__reactFiber'));

describe('a result card in the browser', () => {
  it('keeps the server’s markup of the car as it is, and hydrates only its Save button', () => {
    const car = hit();
    const page = () => (
      <RemoteSlotContext.Provider value={slots}>
        <MemoryRouter>
          <ul>
            <VehicleCard car={car} site={site} now={now} priority />
          </ul>
        </MemoryRouter>
      </RemoteSlotContext.Provider>
    );
    const container = document.createElement('div');
    container.innerHTML = renderToString(page());
    document.body.append(container);
    const link = container.querySelector('.vehicle-card__link')!;
    const recoverable: unknown[] = [];
    let root!: Root;
    act(() => {
      root = hydrateRoot(container, <AdoptMarkupContext.Provider value={serverMarkup(container)}>{page()}</AdoptMarkupContext.Provider>, {
        onRecoverableError: (error) => recoverable.push(error),
      });
    });
    expect(recoverable).toEqual([]);
    expect(container.querySelector('.vehicle-card__link')).toBe(link);
    expect(ownedByReact(container.querySelector('.vehicle-card__body')!)).toBe(true);
    expect(ownedByReact(link)).toBe(false);
    expect(ownedByReact(container.querySelector('.vehicle-card__price')!)).toBe(false);
    const save = container.querySelector('button')!;
    act(() => save.click());
    expect(save.textContent).toBe('♡ Save 1');
    act(() => root.unmount());
    container.remove();
  });
});
