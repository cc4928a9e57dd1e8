import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import type { Car } from '@dealer/contracts/car';
import type { PublicSiteConfig } from '@dealer/contracts/site';
import { formatPrice } from '@dealer/rules/price';
import { vehiclePath } from '@dealer/rules/routes';
import { stripQuotes } from '@dealer/rules/search-query';
import { VehicleImage } from '@dealer/ui/vehicle-image';

const shown = 4;

/** Same make or body, within 30% of the price, this car left out (the site key scopes the rest). */
export function similarCarsFilter(car: Pick<Car, 'id' | 'make' | 'simple_body' | 'price'>): string[] {
  const filter = [`(make = "${stripQuotes(car.make)}" OR body = "${stripQuotes(car.simple_body)}")`, `id != ${car.id}`];
  if (car.price > 10) filter.push(`price ${Math.round(car.price * 0.7)} TO ${Math.round(car.price * 1.3)}`);
  return filter;
}

/**
 * Similar cars from search, so even a sold car's page helps the shopper on. Loads (client and
 * results) only when the strip comes near the screen: it is never on the first paint's path.
 */
export function SimilarCars({ car, site }: { car: Car; site: PublicSiteConfig }) {
  const ref = useRef<HTMLElement>(null);
  const [cars, setCars] = useState<Car[] | null>(null);

  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    let live = true;
    const load = async () => {
      const { Meilisearch } = await import('meilisearch');
      const client = new Meilisearch({ host: site.search.host, apiKey: site.search.apiKey });
      const result = await client
        .index(site.search.indexUid)
        .search('', { filter: similarCarsFilter(car), sort: ['custom_rank:desc'], limit: shown });
      if (live) setCars(result.hits as Car[]);
    };
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          observer.disconnect();
          load().catch(() => live && setCars([]));
        }
      },
      { rootMargin: '200px' },
    );
    observer.observe(element);
    return () => {
      live = false;
      observer.disconnect();
    };
  }, [car, site.search]);

  return (
    <section ref={ref} className="similar-cars" aria-labelledby="similar-cars-title">
      <h2 id="similar-cars-title">Similar cars</h2>
      {cars === null ? (
        <p className="similar-cars__placeholder">Finding similar cars…</p>
      ) : cars.length === 0 ? (
        <p>No similar cars in stock right now.</p>
      ) : (
        <ul className="similar-cars__list">
          {cars.map((similar) => (
            <li key={similar.id}>
              <Link to={vehiclePath(site, similar.slug)}>
                <VehicleImage
                  path={similar.primary_image_url}
                  alt=""
                  width={320}
                  height={240}
                  sizes="(min-width: 768px) 25vw, 50vw"
                  widths={[320, 480, 640]}
                />
                <span className="similar-cars__name">{similar.name}</span>
                <span className="similar-cars__price">
                  {formatPrice(similar.price, { preorder: similar.preorder, locale: site.locale })}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
