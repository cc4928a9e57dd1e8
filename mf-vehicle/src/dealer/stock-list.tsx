import { useEffect, useState, type FormEvent } from 'react';
import type { StockListProps } from '@dealer/contracts/remote-modules';
import { Button } from '@dealer/ui/button';
import { CarForm } from './car-form';
import { FeedImport } from './feed-import';
import { carStatuses, carTypes, stockApi, StockApiError, thumbnail, type CarAnswer, type StockFilter, type StockRow } from './stock-api';
import './stock-list.css';

const statusLabels: Record<string, string> = { in_stock: 'In stock', coming_soon: 'Coming soon', sold: 'Sold' };
const typeLabels: Record<string, string> = { new: 'New', used: 'Used', demo: 'Demo' };

/**
 * The dealer's stock (console screen of mf-vehicle): the site's cars newest first, found by make,
 * model, stock number or VIN and filtered by status, type and whether the website shows them; a
 * car's form beside the list; "Add a car".
 */
export default function StockList({ apiBase, canWrite }: StockListProps) {
  const api = stockApi(apiBase);
  const [draft, setDraft] = useState<StockFilter>({});
  const [filter, setFilter] = useState<StockFilter>({});
  const [cars, setCars] = useState<StockRow[]>([]);
  const [locations, setLocations] = useState<{ id: number; name: string }[]>([]);
  const [locale, setLocale] = useState('en-AU');
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<StockApiError | null>(null);
  const [loading, setLoading] = useState(true);
  const [open, setOpen] = useState<CarAnswer | 'new' | null>(null);
  const [feedOpen, setFeedOpen] = useState(false);
  // A form is made afresh when the dealer opens a car or starts a new one, not when the one open is saved.
  const [formKey, setFormKey] = useState(0);
  const price = new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: locale === 'en-US' ? 'USD' : locale === 'en-NZ' ? 'NZD' : 'AUD',
    maximumFractionDigits: 0,
  });

  useEffect(() => {
    let current = true;
    stockApi(apiBase)
      .list(filter, null)
      .then(
        (page) => {
          if (!current) return;
          setCars(page.cars);
          setNext(page.next_cursor);
          setLocations(page.locations);
          setLocale(page.locale);
          setError(null);
        },
        (caught: unknown) =>
          current && setError(caught instanceof StockApiError ? caught : new StockApiError('The stock could not be loaded.')),
      )
      .finally(() => current && setLoading(false));
    return () => {
      current = false;
    };
  }, [apiBase, filter]);

  const more = async (cursor: string) => {
    setLoading(true);
    try {
      const page = await api.list(filter, cursor);
      setCars((shown) => [...shown, ...page.cars]);
      setNext(page.next_cursor);
    } catch (caught) {
      setError(caught instanceof StockApiError ? caught : new StockApiError('The stock could not be loaded.'));
    } finally {
      setLoading(false);
    }
  };
  const openCar = async (id: number) => {
    try {
      setOpen(await api.car(id));
      setFormKey((key) => key + 1);
    } catch (caught) {
      setError(caught instanceof StockApiError ? caught : new StockApiError('The car could not be opened.'));
    }
  };
  const saved = (answer: CarAnswer) => {
    setOpen(answer);
    const row: StockRow = {
      id: answer.car.id,
      name: answer.car.name,
      stocknum: answer.car.stocknum,
      vin: answer.car.vin,
      price: answer.car.price,
      status: answer.car.status,
      car_type: answer.car.car_type,
      shown: answer.car.show_on_dealer_website,
      location_name: locations.find((location) => location.id === answer.car.location_id)?.name ?? '',
      photo: answer.car.photos[0] ?? null,
      photos: answer.car.photos.length,
    };
    setCars((shown) => (shown.some((car) => car.id === row.id) ? shown.map((car) => (car.id === row.id ? row : car)) : [row, ...shown]));
  };
  const search = (event: FormEvent) => {
    event.preventDefault();
    setLoading(true);
    setFilter({ ...draft });
  };
  const choose = (key: keyof StockFilter, label: string, options: [string, string][]) => (
    <div className="dp-field">
      <label htmlFor={`stock-${key}`}>{label}</label>
      <select id={`stock-${key}`} value={draft[key] ?? ''} onChange={(event) => setDraft({ ...draft, [key]: event.target.value })}>
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
      {error?.fields[key] ? <p className="dp-field__error">{error.fields[key]}</p> : null}
    </div>
  );

  return (
    <section className="dc-stock" aria-labelledby="dc-stock-title">
      <h1 id="dc-stock-title">Stock</h1>
      <p>
        <Button variant="secondary" onClick={() => setFeedOpen(!feedOpen)} aria-expanded={feedOpen}>
          {feedOpen ? 'Close the inventory feed' : 'Inventory feed'}
        </Button>
      </p>
      {feedOpen ? (
        <FeedImport
          apiBase={apiBase}
          canWrite={canWrite}
          onApplied={() => {
            setLoading(true);
            setFilter({ ...filter });
          }}
        />
      ) : null}
      <form className="dc-stock__filters" onSubmit={search} role="search" aria-label="Find cars">
        <div className="dp-field">
          <label htmlFor="stock-q">Make, model, stock number or VIN</label>
          <input id="stock-q" type="search" value={draft.q ?? ''} onChange={(event) => setDraft({ ...draft, q: event.target.value })} />
        </div>
        {choose('status', 'Status', [
          ['', 'Any status'],
          ...carStatuses.map((status): [string, string] => [status, statusLabels[status]!]),
        ])}
        {choose('type', 'New, used or demo', [['', 'Any'], ...carTypes.map((type): [string, string] => [type, typeLabels[type]!])])}
        {choose('shown', 'On the website', [
          ['', 'Shown or hidden'],
          ['yes', 'Shown'],
          ['no', 'Hidden'],
        ])}
        <Button type="submit">Find cars</Button>
        {canWrite ? (
          <Button
            variant="secondary"
            onClick={() => {
              setOpen('new');
              setFormKey((key) => key + 1);
            }}
          >
            Add a car
          </Button>
        ) : null}
      </form>
      {error && Object.keys(error.fields).length === 0 ? (
        <div className="dp-alert dp-alert--destructive" role="alert">
          {error.message}
        </div>
      ) : null}
      <div className="dc-stock__body">
        <table className="dc-stock__table">
          <caption className="dp-visually-hidden">Cars, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Photo</th>
              <th scope="col">Car</th>
              <th scope="col">Stock number</th>
              <th scope="col">Price</th>
              <th scope="col">Status</th>
              <th scope="col">Website</th>
            </tr>
          </thead>
          <tbody>
            {cars.map((car) => (
              <tr key={car.id}>
                <td>{car.photo ? <img src={thumbnail(car.photo)} alt="" width={80} height={60} loading="lazy" /> : null}</td>
                <td>
                  <button type="button" className="dp-button dp-button--link" onClick={() => void openCar(car.id)}>
                    {car.name}
                  </button>
                </td>
                <td>{car.stocknum}</td>
                <td>{price.format(car.price)}</td>
                <td>{statusLabels[car.status] ?? car.status}</td>
                <td>{car.shown ? 'Shown' : 'Hidden'}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {!loading && cars.length === 0 ? <p>No cars match.</p> : null}
        {next ? (
          <Button variant="secondary" loading={loading} onClick={() => void more(next)}>
            Show more
          </Button>
        ) : null}
        {open !== null ? (
          <CarForm
            key={formKey}
            api={api}
            loaded={open === 'new' ? null : open}
            locations={open === 'new' ? locations : open.locations}
            canWrite={canWrite}
            onSaved={saved}
            onClose={() => setOpen(null)}
          />
        ) : null}
      </div>
    </section>
  );
}
