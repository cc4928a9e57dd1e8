import { useEffect, useState } from 'react';
import { Button } from '@dealer/ui/button';
import { ApiError, consoleCall, type ConsoleSite } from './console-api';

type Version = { version: string; published_at: number; notes: string | null };
type Remote = { name: string; enabled: boolean; pinned: string | null; latest: string | null; running: string | null; versions: Version[] };
type Change = {
  id: number;
  remote: string;
  user_email: string;
  before: { enabled: boolean; version: string | null };
  after: { enabled: boolean; version: string | null };
  created_at: number;
};
type Settings = { remotes: Remote[]; history: Change[] };

const when = (ms: number) => new Date(ms).toLocaleString('en-AU', { dateStyle: 'medium', timeStyle: 'short' });
const describe = (state: { enabled: boolean; version: string | null }) => (state.enabled ? (state.version ?? 'latest') : 'off');

/** The remotes a site runs: on or off, following the latest or pinned, with each version's notes; every change can be rolled back. */
export function RemotesScreen({ site }: { site: ConsoleSite }) {
  const base = `/api/console/sites/${encodeURIComponent(site.slug)}/remote-settings`;
  const canWrite = site.actions.includes('remotes.write');
  const [settings, setSettings] = useState<Settings | null>(null);
  const [error, setError] = useState<{ remote: string; error: ApiError } | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [choice, setChoice] = useState<Record<string, string>>({});
  const [version, setVersion] = useState(0);
  const [previewUrl, setPreviewUrl] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    consoleCall<Settings>('GET', base).then(
      (loaded) => current && setSettings(loaded),
      (caught: unknown) =>
        current && setError({ remote: '', error: caught instanceof ApiError ? caught : new ApiError('Could not load the remotes.', 0) }),
    );
    return () => {
      current = false;
    };
  }, [base, version]);

  const apply = async (remote: string, change: { enabled?: boolean; version?: string | null }, said: string) => {
    try {
      await consoleCall('POST', `${base}/${remote}`, change);
      setError(null);
      setDone(said);
      setVersion((n) => n + 1);
    } catch (caught) {
      setError({ remote, error: caught instanceof ApiError ? caught : new ApiError('The change could not be applied.', 0) });
    }
  };

  const preview = async () => {
    if (!settings) return;
    try {
      const remotes = settings.remotes.map((remote) => ({
        name: remote.name,
        enabled: remote.enabled,
        version: (choice[remote.name] ?? remote.pinned ?? '') || null,
      }));
      const { url } = await consoleCall<{ url: string }>('POST', `${base}/preview`, { remotes });
      setPreviewUrl(url);
      setError(null);
      window.open(url, '_blank', 'noopener');
    } catch (caught) {
      setError({ remote: '', error: caught instanceof ApiError ? caught : new ApiError('The preview could not be made.', 0) });
    }
  };

  if (!settings)
    return error ? (
      <div className="dp-alert dp-alert--destructive" role="alert">
        {error.error.message}
      </div>
    ) : (
      <p role="status">Loading the remotes…</p>
    );
  return (
    <section aria-labelledby="dc-remotes-title">
      <h1 id="dc-remotes-title">Remotes of {site.name}</h1>
      <p role="status">{done ?? ''}</p>
      <table className="dc-remotes">
        <thead>
          <tr>
            <th scope="col">Remote</th>
            <th scope="col">Shoppers get</th>
            <th scope="col">Version</th>
            {canWrite ? <th scope="col">Change</th> : null}
          </tr>
        </thead>
        <tbody>
          {settings.remotes.map((remote) => {
            const selected = choice[remote.name] ?? remote.pinned ?? '';
            const notes = remote.versions.find((one) => one.version === (selected || remote.latest))?.notes;
            return (
              <tr key={remote.name}>
                <th scope="row">{remote.name}</th>
                <td>{remote.running ?? 'off'}</td>
                <td>
                  <label className="dp-field">
                    <span className="dp-visually-hidden">Version of {remote.name}</span>
                    <select
                      value={selected}
                      disabled={!canWrite}
                      onChange={(event) => setChoice({ ...choice, [remote.name]: event.target.value })}
                    >
                      <option value="">Follow the latest ({remote.latest ?? 'none'})</option>
                      {remote.versions.map((one) => (
                        <option key={one.version} value={one.version}>
                          {one.version}, published {when(one.published_at)}
                        </option>
                      ))}
                    </select>
                  </label>
                  {notes ? <p className="dc-remotes__notes">{notes}</p> : null}
                  {error?.remote === remote.name ? (
                    <p className="dp-field__error">{error.error.fields.version ?? error.error.message}</p>
                  ) : null}
                </td>
                {canWrite ? (
                  <td className="dc-remotes__actions">
                    <Button
                      variant="secondary"
                      onClick={() =>
                        void apply(remote.name, { version: selected || null }, `${remote.name}: ${selected || 'following the latest'}.`)
                      }
                    >
                      Apply version of {remote.name}
                    </Button>
                    <Button
                      variant="secondary"
                      onClick={() =>
                        void apply(remote.name, { enabled: !remote.enabled }, `${remote.name} switched ${remote.enabled ? 'off' : 'on'}.`)
                      }
                    >
                      {remote.enabled ? `Switch ${remote.name} off` : `Switch ${remote.name} on`}
                    </Button>
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
      {canWrite ? (
        <p className="dc-remotes__preview">
          <Button variant="secondary" onClick={() => void preview()}>
            Preview the site at these versions
          </Button>{' '}
          Only the browser that opens the link sees them, for an hour; shoppers keep the applied versions.
          {previewUrl ? (
            <>
              {' '}
              <a href={previewUrl} target="_blank" rel="noopener">
                Open the preview again
              </a>{' '}
              (<a href={previewUrl.replace(/\?dp_preview=.*$/, '?dp_preview=off')}>end it</a>)
            </>
          ) : null}
        </p>
      ) : null}
      {error && error.remote === '' && settings ? (
        <div className="dp-alert dp-alert--destructive" role="alert">
          {error.error.message}
        </div>
      ) : null}
      <h2>History</h2>
      {settings.history.length === 0 ? <p>No changes yet.</p> : null}
      <ul className="dc-history">
        {settings.history.map((entry) => (
          <li key={entry.id}>
            {when(entry.created_at)}: {entry.user_email} changed {entry.remote} from {describe(entry.before)} to {describe(entry.after)}{' '}
            {canWrite ? (
              <Button
                variant="link"
                onClick={() => void apply(entry.remote, entry.before, `${entry.remote} rolled back to ${describe(entry.before)}.`)}
              >
                Roll back {entry.remote} to {describe(entry.before)}
              </Button>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
