import { useEffect, useState } from 'react';
import { Button } from '@dealer/ui/button';
import { feedApi, type DryRun, type FeedSettings, type FeedUpload, type ImportState } from './feed-api';
import { StockApiError } from './stock-api';

const actionLabels: Record<string, string> = {
  new: 'New',
  changed: 'Changed',
  unchanged: 'Unchanged',
  removed: 'Removed (becomes sold)',
  rejected: 'Rejected',
};
const countsLine = (counts: Record<string, number>) =>
  ['new', 'changed', 'unchanged', 'removed', 'rejected'].map((key) => `${counts[key] ?? 0} ${actionLabels[key]!.toLowerCase()}`).join(', ');

type Props = { apiBase: string; canWrite: boolean; onApplied: () => void };

/**
 * A site's inventory feed: a CSV uploaded or fetched from the feed's address (pulled hourly or
 * daily if set), its columns mapped to the car's fields (kept for the next import), a dry run that
 * lists every new, changed, removed and rejected row with the reason before anything changes, then
 * the import, watched to the end, and the reports of past imports.
 */
export function FeedImport({ apiBase, canWrite, onApplied }: Props) {
  const api = feedApi(apiBase);
  const [settings, setSettings] = useState<FeedSettings | null>(null);
  const [url, setUrl] = useState('');
  const [schedule, setSchedule] = useState<FeedSettings['schedule']>('off');
  const [upload, setUpload] = useState<FeedUpload | null>(null);
  const [mapping, setMapping] = useState<Record<string, string>>({});
  const [plan, setPlan] = useState<DryRun | null>(null);
  const [running, setRunning] = useState<ImportState | null>(null);
  const [error, setError] = useState<StockApiError | null>(null);
  const [said, setSaid] = useState('');
  const [busy, setBusy] = useState(false);

  const failed = (caught: unknown) =>
    setError(caught instanceof StockApiError ? caught : new StockApiError('That did not work. Try again.'));
  const reload = () =>
    feedApi(apiBase)
      .settings()
      .then((loaded) => {
        setSettings(loaded);
        setUrl(loaded.url ?? '');
        setSchedule(loaded.schedule);
      }, failed);
  useEffect(() => void reload(), [apiBase]); // eslint-disable-line react-hooks/exhaustive-deps

  // An import under way is watched every second until it ends.
  useEffect(() => {
    if (!running || running.status !== 'running') return;
    const timer = setTimeout(() => {
      api.state(running.id).then((state) => {
        setRunning(state);
        if (state.status !== 'running') {
          onApplied();
          void reload();
        }
      }, failed);
    }, 1000);
    return () => clearTimeout(timer);
  }, [running]); // eslint-disable-line react-hooks/exhaustive-deps

  const act = async (work: () => Promise<void>) => {
    setBusy(true);
    setSaid('');
    try {
      await work();
      setError(null);
    } catch (caught) {
      failed(caught);
    } finally {
      setBusy(false);
    }
  };
  const received = (answer: FeedUpload) => {
    setUpload(answer);
    setMapping(answer.mapping);
    setPlan(null);
    setRunning(null);
  };
  const fieldError = (key: string) =>
    error?.fields[key] ? (
      <p className="dp-field__error" id={`feed-${key}-error`}>
        {error.fields[key]}
      </p>
    ) : null;
  const described = (key: string) => (error?.fields[key] ? { 'aria-invalid': true, 'aria-describedby': `feed-${key}-error` } : {});

  if (!settings)
    return error ? (
      <div className="dp-alert dp-alert--destructive" role="alert">
        {error.message}
      </div>
    ) : (
      <p role="status">Loading the feed…</p>
    );
  return (
    <section className="dc-feed" aria-labelledby="dc-feed-title">
      <h2 id="dc-feed-title">Inventory feed</h2>
      <fieldset disabled={!canWrite || busy} className="dc-feed__settings">
        <legend>Where the feed comes from</legend>
        <div className="dp-field">
          <label htmlFor="feed-url">Feed address (https://…, optional)</label>
          <input id="feed-url" value={url} onChange={(event) => setUrl(event.target.value)} {...described('url')} />
          {fieldError('url')}
        </div>
        <div className="dp-field">
          <label htmlFor="feed-schedule">Pull it</label>
          <select id="feed-schedule" value={schedule} onChange={(event) => setSchedule(event.target.value as FeedSettings['schedule'])}>
            <option value="off">Only when I ask</option>
            <option value="hourly">Every hour</option>
            <option value="daily">Every day</option>
          </select>
        </div>
        <Button
          variant="secondary"
          onClick={() =>
            void act(async () => {
              setSettings(await api.saveSettings({ url: url.trim() || null, schedule }));
              setSaid('Feed settings saved.');
            })
          }
        >
          Save feed settings
        </Button>{' '}
        {url.trim() ? (
          <Button variant="secondary" onClick={() => void act(async () => received(await api.fetchUrl(url.trim())))}>
            Fetch the feed now
          </Button>
        ) : null}
        <div className="dp-field">
          <label htmlFor="feed-file">Or upload a CSV file</label>
          <input
            id="feed-file"
            type="file"
            accept=".csv,text/csv"
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (file) void act(async () => received(await api.upload(file)));
            }}
            {...described('file')}
          />
          {fieldError('file')}
        </div>
      </fieldset>

      {upload ? (
        <fieldset disabled={!canWrite || busy} className="dc-feed__mapping">
          <legend>Match the feed’s columns ({upload.rows} rows)</legend>
          {fieldError('mapping')}
          <table className="dc-stock__table">
            <caption className="dp-visually-hidden">Each field of a car and the feed column it comes from</caption>
            <thead>
              <tr>
                <th scope="col">Car field</th>
                <th scope="col">Feed column</th>
                <th scope="col">First row</th>
              </tr>
            </thead>
            <tbody>
              {settings.fields.map((field) => {
                const column = mapping[field.field] ?? '';
                const index = upload.columns.indexOf(column);
                return (
                  <tr key={field.field}>
                    <th scope="row">
                      <label htmlFor={`feed-map-${field.field}`}>
                        {field.label}
                        {field.required ? ' (needed)' : ''}
                      </label>
                    </th>
                    <td>
                      <select
                        id={`feed-map-${field.field}`}
                        value={column}
                        onChange={(event) => setMapping({ ...mapping, [field.field]: event.target.value })}
                      >
                        <option value="">Not in this feed</option>
                        {upload.columns.map((name) => (
                          <option key={name} value={name}>
                            {name}
                          </option>
                        ))}
                      </select>
                    </td>
                    <td>{index >= 0 ? (upload.sample[0]?.[index] ?? '') : ''}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <Button
            onClick={() =>
              void act(async () => {
                const chosen = Object.fromEntries(Object.entries(mapping).filter(([, column]) => column));
                setPlan(await api.dryRun(upload.id, chosen));
              })
            }
          >
            Dry run
          </Button>
        </fieldset>
      ) : null}

      {plan && upload ? (
        <section className="dc-feed__plan" aria-labelledby="dc-feed-plan-title">
          <h3 id="dc-feed-plan-title">What the import would do</h3>
          <p>{countsLine(plan.counts)}. Nothing has changed yet.</p>
          <table className="dc-stock__table">
            <caption className="dp-visually-hidden">Each row of the feed and what the import would do with it</caption>
            <thead>
              <tr>
                <th scope="col">Row</th>
                <th scope="col">What happens</th>
                <th scope="col">Stock number</th>
                <th scope="col">Car</th>
                <th scope="col">Why</th>
              </tr>
            </thead>
            <tbody>
              {plan.rows.map((row) => (
                <tr key={`${row.action}-${row.row}-${row.stocknum}`} className={`dc-feed__row--${row.action}`}>
                  <td>{row.row > 0 ? row.row : ''}</td>
                  <td>{actionLabels[row.action]}</td>
                  <td>{row.stocknum}</td>
                  <td>{row.name}</td>
                  <td>{row.reason ?? (row.changes?.length ? `Changes ${row.changes.join(', ')}` : '')}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {canWrite ? (
            <Button
              loading={busy}
              loadingText="Starting"
              onClick={() =>
                void act(async () => {
                  const started = await api.apply(upload.id);
                  setRunning({ id: started.id, status: started.status, progress: null, report: null, error: null });
                  setPlan(null);
                  setUpload(null);
                })
              }
            >
              Apply the import
            </Button>
          ) : null}
        </section>
      ) : null}

      {running ? (
        <div role="status" className="dc-feed__running">
          {running.status === 'running'
            ? `Importing… ${running.progress ? `${running.progress.done} of ${running.progress.total} rows` : ''}`
            : running.status === 'done'
              ? `Import done: ${countsLine((running.report?.counts ?? {}) as Record<string, number>)}${running.report?.photos ? `; ${running.report.photos.fetched} photos fetched, ${running.report.photos.failed} failed` : ''}.`
              : `The import failed: ${running.error ?? 'no reason given'}.`}
        </div>
      ) : (
        <p role="status">{said}</p>
      )}
      {error && Object.keys(error.fields).length === 0 ? (
        <div className="dp-alert dp-alert--destructive" role="alert">
          {error.message}
        </div>
      ) : null}

      {settings.imports.length > 0 ? (
        <section aria-labelledby="dc-feed-history-title">
          <h3 id="dc-feed-history-title">Past imports</h3>
          <ul className="dc-feed__history">
            {settings.imports.map((entry) => (
              <li key={entry.id}>
                {new Date(entry.created_at).toLocaleString()} · {entry.source === 'url' ? 'pulled' : 'uploaded'} · {entry.status}
                {entry.counts ? ` · ${countsLine(entry.counts)}` : ''}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </section>
  );
}
