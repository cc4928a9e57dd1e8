import { useState, type FormEvent, type ReactNode } from 'react';
import { Button } from '@dealer/ui/button';
import { CarPhotosField } from './car-photos-field';
import { carStatuses, carTypes, StockApiError, type CarAnswer, type CarFields, type StockApi } from './stock-api';

const statusLabels: Record<string, string> = { in_stock: 'In stock', coming_soon: 'Coming soon', sold: 'Sold' };
const typeLabels: Record<string, string> = { new: 'New', used: 'Used', demo: 'Demo' };

type Draft = Record<keyof CarFields, string | boolean | string[]>;
const numberFields = ['year', 'km', 'price', 'before_price', 'subscription_price', 'seats', 'custom_rank'] as const;
const optionalNumbers = new Set(['before_price', 'subscription_price']);
const optionalTexts = new Set(['badge', 'series', 'tag']);

const editable: readonly (keyof CarFields)[] = [
  'make',
  'model',
  'badge',
  'series',
  'year',
  'km',
  'price',
  'before_price',
  'subscription_price',
  'car_type',
  'status',
  'stocknum',
  'vin',
  'tag',
  'certified',
  'preorder',
  'show_on_dealer_website',
  'location_id',
  'simple_body',
  'simple_drive',
  'simple_fuel',
  'simple_transmission',
  'colour',
  'seats',
  'filtered_features',
  'description',
  'custom_rank',
  'photos',
];

/** The form's text of each field the dealer edits (the car's id, address and name are the server's). */
const draftOf = (car: Partial<CarFields>): Draft =>
  Object.fromEntries(
    Object.entries(car)
      .filter(([key]) => (editable as readonly string[]).includes(key))
      .map(([key, value]) => [
        key,
        typeof value === 'number' ? String(value) : value === null || value === undefined ? '' : (value as Draft[keyof Draft]),
      ]),
  ) as Draft;

/** The form's text back to the API's values: numbers as numbers (NaN for what is no number, so the server names the field), empty optional fields as null. */
function fieldsOf(draft: Partial<Draft>): Partial<CarFields> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(draft)) {
    if ((numberFields as readonly string[]).includes(key)) {
      const text = String(value).replace(/[,$\s]/g, '');
      out[key] = text === '' && optionalNumbers.has(key) ? null : text === '' ? undefined : Number(text);
    } else if (key === 'location_id') out[key] = Number(value);
    else if (key === 'filtered_features')
      out[key] = String(value)
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean);
    else if (optionalTexts.has(key) && value === '') out[key] = null;
    else out[key] = value;
  }
  return out as Partial<CarFields>;
}

type Props = {
  api: StockApi;
  loaded: CarAnswer | null;
  locations: { id: number; name: string }[];
  canWrite: boolean;
  onSaved: (saved: CarAnswer) => void;
  onClose: () => void;
};

/**
 * One car's every field (SPEC §3) as the dealer edits them, its photos (added, moved, removed),
 * and the quick "Mark sold" and "Hide from the website"; a new car starts empty. An error comes back
 * beside its field and nothing typed is lost; saved, search and the car's page show it at once.
 */
export function CarForm({ api, loaded, locations, canWrite, onSaved, onClose }: Props) {
  const [draft, setDraft] = useState<Draft>(() =>
    loaded
      ? { ...draftOf(loaded.car), filtered_features: loaded.car.filtered_features.join('\n') }
      : draftOf({ car_type: 'used', status: 'in_stock', show_on_dealer_website: true, location_id: locations[0]?.id, seats: 5, vin: '' }),
  );
  const [error, setError] = useState<StockApiError | null>(null);
  const [said, setSaid] = useState('');
  const [saving, setSaving] = useState(false);
  const id = loaded?.car.id ?? null;

  const save = async (change: Partial<Draft>, done: string) => {
    setSaving(true);
    setSaid('');
    try {
      const saved = id === null ? await api.create(fieldsOf({ ...draft, ...change })) : await api.change(id, fieldsOf(change));
      setDraft({ ...draftOf(saved.car), filtered_features: saved.car.filtered_features.join('\n') });
      setError(null);
      setSaid(done);
      onSaved(saved);
    } catch (caught) {
      setError(caught instanceof StockApiError ? caught : new StockApiError('The car could not be saved. Try again.'));
    } finally {
      setSaving(false);
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save(draft, id === null ? 'Car added. Search and its page show it now.' : 'Saved. Search and the car’s page show it now.');
  };

  const errorOf = (key: string) =>
    error?.fields[key] ? (
      <p className="dp-field__error" id={`car-${key}-error`}>
        {error.fields[key]}
      </p>
    ) : null;
  const described = (key: string) => (error?.fields[key] ? { 'aria-invalid': true, 'aria-describedby': `car-${key}-error` } : {});
  const field = (key: keyof CarFields, label: string, input?: (props: { id: string }) => ReactNode) => (
    <div className="dp-field" key={key}>
      <label htmlFor={`car-${key}`}>{label}</label>
      {input ? (
        input({ id: `car-${key}` })
      ) : (
        <input
          id={`car-${key}`}
          value={String(draft[key] ?? '')}
          inputMode={(numberFields as readonly string[]).includes(key) ? 'decimal' : undefined}
          onChange={(event) => setDraft({ ...draft, [key]: event.target.value })}
          {...described(key)}
        />
      )}
      {errorOf(key)}
    </div>
  );
  const select = (key: keyof CarFields, label: string, options: [string, string][]) =>
    field(key, label, ({ id: inputId }) => (
      <select
        id={inputId}
        value={String(draft[key])}
        onChange={(event) => setDraft({ ...draft, [key]: event.target.value })}
        {...described(key)}
      >
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    ));
  const check = (key: keyof CarFields, label: string) => (
    <label className="dc-car__check" key={key}>
      <input type="checkbox" checked={draft[key] === true} onChange={(event) => setDraft({ ...draft, [key]: event.target.checked })} />{' '}
      {label}
    </label>
  );

  return (
    <section className="dc-car" aria-labelledby="dc-car-title">
      <h2 id="dc-car-title">{loaded ? loaded.car.name : 'Add a car'}</h2>
      {loaded ? (
        <p>
          <a href={loaded.page} target="_blank" rel="noreferrer">
            Open the car’s page
          </a>
        </p>
      ) : null}
      <form onSubmit={submit} noValidate>
        <fieldset disabled={!canWrite} className="dc-car__fields">
          <legend>The car</legend>
          {field('make', 'Make')}
          {field('model', 'Model')}
          {field('badge', 'Badge')}
          {field('series', 'Series')}
          {field('year', 'Year')}
          {field('km', 'Kilometres')}
          {select(
            'car_type',
            'New, used or demo',
            carTypes.map((type) => [type, typeLabels[type]!]),
          )}
          {select(
            'status',
            'Status',
            carStatuses.map((status) => [status, statusLabels[status]!]),
          )}
          {field('price', 'Price')}
          {field('before_price', 'Price before (shown struck through)')}
          {field('subscription_price', 'Subscription price a week')}
          {field('stocknum', 'Stock number')}
          {field('vin', 'VIN')}
          {field('tag', 'Tag (e.g. Special)')}
          {select(
            'location_id',
            'Location',
            locations.map((location) => [String(location.id), location.name]),
          )}
          {field('simple_body', 'Body')}
          {field('simple_fuel', 'Fuel')}
          {field('simple_transmission', 'Transmission')}
          {field('simple_drive', 'Drive')}
          {field('colour', 'Colour')}
          {field('seats', 'Seats')}
          {field('custom_rank', 'Rank (higher shows first)')}
          {field('filtered_features', 'Features (one a line)', ({ id: inputId }) => (
            <textarea
              id={inputId}
              rows={4}
              value={String(draft.filtered_features)}
              onChange={(event) => setDraft({ ...draft, filtered_features: event.target.value })}
              {...described('filtered_features')}
            />
          ))}
          {field('description', 'Description', ({ id: inputId }) => (
            <textarea
              id={inputId}
              rows={6}
              value={String(draft.description ?? '')}
              onChange={(event) => setDraft({ ...draft, description: event.target.value })}
              {...described('description')}
            />
          ))}
          {check('show_on_dealer_website', 'Shown on the website')}
          {check('certified', 'Certified')}
          {check('preorder', 'Pre-order')}
        </fieldset>
        {id !== null ? (
          <CarPhotosField
            photos={draft.photos as string[]}
            disabled={!canWrite || saving}
            error={error?.fields.photos ?? null}
            onReorder={(photos) => void save({ photos }, 'Photos saved.')}
            onUpload={async (files) => {
              for (const file of files) {
                const saved = await api.addPhoto(id, file);
                setDraft((now) => ({ ...now, photos: saved.car.photos }));
                onSaved(saved);
              }
              setSaid(`${files.length} photo${files.length === 1 ? '' : 's'} added.`);
            }}
          />
        ) : (
          <p>Photos can be added once the car is saved.</p>
        )}
        {error && Object.keys(error.fields).length > 0 ? <p className="dp-field__error">{error.message}</p> : null}
        {error && Object.keys(error.fields).length === 0 ? (
          <div className="dp-alert dp-alert--destructive" role="alert">
            {error.message}
          </div>
        ) : null}
        <p role="status">{said}</p>
        {canWrite ? (
          <div className="dc-car__actions">
            <Button type="submit" loading={saving} loadingText="Saving">
              {id === null ? 'Add the car' : 'Save the car'}
            </Button>
            {id !== null && draft.status !== 'sold' ? (
              <Button variant="secondary" disabled={saving} onClick={() => void save({ status: 'sold' }, 'Marked sold.')}>
                Mark sold
              </Button>
            ) : null}
            {id !== null && draft.show_on_dealer_website === true ? (
              <Button
                variant="secondary"
                disabled={saving}
                onClick={() => void save({ show_on_dealer_website: false }, 'Hidden from the website.')}
              >
                Hide from the website
              </Button>
            ) : null}
            <Button variant="link" onClick={onClose}>
              Close
            </Button>
          </div>
        ) : (
          <Button variant="link" onClick={onClose}>
            Close
          </Button>
        )}
      </form>
    </section>
  );
}
