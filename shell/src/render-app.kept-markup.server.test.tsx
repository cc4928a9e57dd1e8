import { describe, expect, it } from 'vitest';
import { testSite } from '@dealer/contracts/testing/test-site';
import { KeptMarkup, type KeptMarkupCache, type KeptMarkupEntry } from '@dealer/ui/kept-markup';
import { RemoteSlot } from '@dealer/ui/remote-slot';
import type { ServerRemote } from '@dealer/state/server-render';
import { renderApp } from './render-app.server';

const site = testSite({
  remotes: [
    {
      name: 'mf-search',
      version: '1.10.0',
      manifestUrl: 'https://remotes.example.com/mf-search/1.10.0/mf-manifest.json',
      entryUrl: 'https://remotes.example.com/mf-search/1.10.0/remoteEntry.js',
    },
    {
      name: 'mf-garage',
      version: '1.3.1',
      manifestUrl: 'https://remotes.example.com/mf-garage/1.3.1/mf-manifest.json',
      entryUrl: 'https://remotes.example.com/mf-garage/1.3.1/remoteEntry.js',
    },
  ],
});
const searchUrl = `https://www.metrotoyota.example.com.au${site.default_search_path}`;

type Car = { id: number; name: string; slug: string; price: number };
const cars: Car[] = [
  { id: 1, name: '2024 Toyota HiLux', slug: '2024-toyota-hilux', price: 52990 },
  { id: 2, name: '2023 Toyota RAV4 & Co <Cruiser>', slug: '2023-toyota-rav4', price: 41990 },
  { id: 3, name: '2022 Mazda CX-5', slug: '2022-mazda-cx-5', price: 33990 },
];

/** The cars whose card markup was worked out, in the last render. */
const cardsWorkedOut: number[] = [];
const workedOut = (id: number) => cardsWorkedOut.push(id);

function CardBody({ car, onRender }: { car: Car; onRender: (id: number) => void }) {
  onRender(car.id);
  return (
    <>
      <a href={`/cars/${car.slug}`}>
        {car.name} {car.price}
      </a>
      <span className="actions">
        <RemoteSlot
          module="mf-garage/FavouriteButton"
          car={{ ...car, make: 'Toyota', model: 'HiLux', primary_image_url: '/img/car.jpg' }}
        />
      </span>
    </>
  );
}

/** A results list as mf-search's cards keep theirs (a car of id 0 renders every time). */
const resultsPage = (list: Car[]): ServerRemote => ({
  'mf-search/SearchPage': {
    Component: () => (
      <ul className="results">
        {list.map((car) => (
          <KeptMarkup
            key={car.id}
            as="li"
            keep={car.id === 0 ? null : () => `card ${JSON.stringify(car)}`}
            className="card"
            data-car-id={car.id}
          >
            <CardBody car={car} onRender={workedOut} />
          </KeptMarkup>
        ))}
      </ul>
    ),
  },
  'mf-garage/FavouriteButton': { Component: ({ car }) => <button type="button">♡ Save the {car.name}</button> },
});

function memoryCache() {
  const entries = new Map<string, KeptMarkupEntry>();
  const cache: KeptMarkupCache = { get: (key) => entries.get(key), set: (key, entry) => entries.set(key, entry) };
  return { cache, entries };
}

/**
 * The page's markup without the image preloads React puts before it (one per eager image it meets:
 * a kept header's logo is not met again, and the browser finds the image in the markup at once).
 */
const withoutImagePreloads = (html: string) => html.replace(/^(<link rel="preload" as="image"[^>]*>)+/, '');

async function render(list: Car[], keptMarkup: KeptMarkupCache | null) {
  cardsWorkedOut.length = 0;
  const page = await renderApp({ site, url: searchUrl, hero: null, remotes: resultsPage(list), keptMarkup });
  return {
    ...page,
    html: withoutImagePreloads(page.html),
    preloads: page.html.length - withoutImagePreloads(page.html).length,
    cardsRendered: cardsWorkedOut.length,
  };
}

describe('parts of a page the server keeps and repeats (cards, header, footer)', () => {
  it('gives the same page as a full render, the first time and every time after', async () => {
    const full = await render(cars, null);
    const { cache, entries } = memoryCache();
    const first = await render(cars, cache);
    const repeated = await render(cars, cache);

    expect(full.preloads).toBeGreaterThan(0);
    expect(first.html).toBe(full.html);
    expect(repeated.html).toBe(full.html);
    expect(full.html).not.toContain('data-kept-markup');
    expect(full.html).toContain('2023 Toyota RAV4 &amp; Co &lt;Cruiser&gt;');
    expect([...entries.keys()].map((key) => key.split(' ')[0]).sort()).toEqual(['card', 'card', 'card', 'site-footer', 'site-header']);
    expect(first.cardsRendered).toBe(3);
    expect(repeated.cardsRendered).toBe(0);
  });

  it('renders a part it is told not to keep every time', async () => {
    const { cache } = memoryCache();
    const list = [{ ...cars[0]!, id: 0 }, cars[1]!];
    await render(list, cache);
    const page = await render(list, cache);

    expect(page.cardsRendered).toBe(1);
    expect(page.html).toBe((await render(list, null)).html);
  });

  it('lists a slot module for the browser when only kept cards hold it', async () => {
    const { cache } = memoryCache();
    const first = await render(cars, cache);
    const repeated = await render(cars, cache);

    expect(repeated.cardsRendered).toBe(0);
    expect(new Set(first.state?.modules)).toEqual(new Set(['mf-search/SearchPage', 'mf-garage/FavouriteButton']));
    expect(new Set(repeated.state?.modules)).toEqual(new Set(['mf-search/SearchPage', 'mf-garage/FavouriteButton']));
  });

  it('renders a card afresh when anything it shows changed (its key is what it shows)', async () => {
    const { cache } = memoryCache();
    await render(cars, cache);
    const cheaper = cars.map((car) => (car.id === 3 ? { ...car, price: 29990 } : car));
    const page = await render(cheaper, cache);

    expect(page.cardsRendered).toBe(1);
    expect(page.html).toContain('2022 Mazda CX-5<!-- --> <!-- -->29990');
    expect(page.html).toBe((await render(cheaper, null)).html);
  });
});
