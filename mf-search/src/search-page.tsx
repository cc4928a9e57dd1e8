import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import type { SearchPageProps } from '@dealer/contracts/remote-modules';
import { useAppSelector } from '@dealer/state/hooks';
import { selectSite } from '@dealer/state/site-slice';
import { formatPrice } from '@dealer/rules/price';
import { vehiclePath } from '@dealer/rules/routes';
import { formatDistance } from '@dealer/rules/locale';
import { Spinner } from '@dealer/ui/spinner';
import { Alert } from '@dealer/ui/alert';
import { Button } from '@dealer/ui/button';
import { VehicleImage } from '@dealer/ui/vehicle-image';
import { usePageTitle } from '@dealer/ui/page-title';
import { useSearchCarsQuery } from './search-api';
import './search-page.css';

const hitsPerPage = 24;

/** SPEC §5: only a numeric string greater than 1 gives that page, otherwise page 1. */
const pageFromParam = (value: string | null) => (value && /^\d+$/.test(value) && Number(value) > 1 ? Number(value) : 1);

export default function SearchPage({ searchSlug }: SearchPageProps) {
  const site = useAppSelector(selectSite);
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const make = params.get('make');
  const page = pageFromParam(params.get('page'));
  const [keyword, setKeyword] = useState(q);
  const { data, error, isFetching } = useSearchCarsQuery({ q, make, page, hitsPerPage, sort: site.default_sort });
  usePageTitle('Search stock', site.name);

  const update = (next: Record<string, string | null>) => {
    const merged = new URLSearchParams(params);
    for (const [key, value] of Object.entries(next)) {
      if (value === null || value === '') merged.delete(key);
      else merged.set(key, value);
    }
    setParams(merged);
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    update({ q: keyword.trim(), page: null });
  };

  return (
    <div className="search-page dp-container" data-search-slug={searchSlug} data-remote-version={__REMOTE_VERSION__}>
      <h1>Search stock</h1>
      <form className="search-page__bar" role="search" onSubmit={onSubmit}>
        <label className="dp-visually-hidden" htmlFor="search-keyword">
          Keyword or stock number
        </label>
        <input id="search-keyword" type="search" value={keyword} placeholder="Make, model or stock number" onChange={(e) => setKeyword(e.target.value)} />
        <label className="dp-visually-hidden" htmlFor="search-make">
          Make
        </label>
        <select id="search-make" value={make ?? ''} onChange={(e) => update({ make: e.target.value, page: null })}>
          <option value="">All makes</option>
          {Object.entries(data?.makes ?? {}).map(([name, count]) => (
            <option key={name} value={name}>{`${name} (${count})`}</option>
          ))}
        </select>
        <Button type="submit">Search</Button>
      </form>
      {error ? (
        <Alert tone="destructive">Search is unavailable right now. Your filters are kept: try again in a moment.</Alert>
      ) : !data ? (
        <Spinner category={site.vehicle_category} plain={site.features.plain_spinner} />
      ) : (
        <>
          <p className="search-page__count" aria-live="polite">
            {`${data.count} vehicles`}
            {isFetching && ' · updating'}
          </p>
          <ul className="search-page__results" aria-busy={isFetching}>
            {data.hits.map((car, index) => (
              <li key={car.id} className="vehicle-card">
                <Link to={vehiclePath(site, car.slug)} className="vehicle-card__link">
                  <VehicleImage
                    path={car.primary_image_url}
                    alt={car.name}
                    width={480}
                    height={360}
                    sizes="(min-width: 1200px) 300px, (min-width: 768px) 45vw, 100vw"
                    priority={index < 2}
                  />
                  <span className="vehicle-card__name">{car.name}</span>
                </Link>
                <span className="vehicle-card__price">{formatPrice(car.price, { preorder: car.preorder, locale: site.locale })}</span>
                <span className="vehicle-card__meta">{`${formatDistance(car.km, site.locale)} · ${car.location_name}`}</span>
              </li>
            ))}
          </ul>
          {data.pagination.pages > 1 && (
            <nav className="search-page__pages" aria-label="Pages">
              <Button variant="secondary" disabled={page <= 1} onClick={() => update({ page: page > 2 ? String(page - 1) : null })}>
                Previous
              </Button>
              <span>{`Page ${page} of ${data.pagination.pages}`}</span>
              <Button variant="secondary" disabled={page >= data.pagination.pages} onClick={() => update({ page: String(page + 1) })}>
                Next
              </Button>
            </nav>
          )}
        </>
      )}
    </div>
  );
}
