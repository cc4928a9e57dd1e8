import { useEffect, useState } from 'react';
import { Button } from '@dealer/ui/button';
import type { ConsoleSite } from './console-api';

type Entry = { id: number; user_email: string; action: string; target: string; before: unknown; after: unknown; created_at: number };
const when = (ms: number) => new Date(ms).toLocaleString('en-AU', { dateStyle: 'medium', timeStyle: 'short' });
const shown = (value: unknown) => (value === null || value === undefined ? '–' : JSON.stringify(value));

/** Every change made to the site through the console: who, what, before → after, when; newest first. */
export function AuditScreen({ site }: { site: ConsoleSite }) {
  const base = `/api/console/sites/${encodeURIComponent(site.slug)}/audit`;
  const [entries, setEntries] = useState<Entry[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = async (cursor: string | null) => {
    const res = await fetch(`${base}?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { credentials: 'same-origin' });
    const body = (await res.json()) as { entries: Entry[]; next_cursor: string | null; message?: string };
    if (!res.ok) throw new Error(body.message ?? `The console answered ${res.status}.`);
    return body;
  };
  useEffect(() => {
    let current = true;
    load(null).then(
      (page) => {
        if (!current) return;
        setEntries(page.entries);
        setNext(page.next_cursor);
      },
      (caught: unknown) => current && setError(caught instanceof Error ? caught.message : 'The audit log could not be loaded.'),
    );
    return () => {
      current = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- one site per screen (keyed by its slug)
  }, []);

  if (error)
    return (
      <div className="dp-alert dp-alert--destructive" role="alert">
        {error}
      </div>
    );
  if (!entries) return <p role="status">Loading the audit log…</p>;
  return (
    <section aria-labelledby="dc-audit-title">
      <h1 id="dc-audit-title">Audit log of {site.name}</h1>
      {entries.length === 0 ? <p>No changes yet.</p> : null}
      <table className="dc-inbox__table">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">What</th>
            <th scope="col">Before</th>
            <th scope="col">After</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr key={entry.id}>
              <td>{when(entry.created_at)}</td>
              <td>{entry.user_email}</td>
              <td>
                {entry.action} · {entry.target}
              </td>
              <td className="dc-audit__value">{shown(entry.before)}</td>
              <td className="dc-audit__value">{shown(entry.after)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {next ? (
        <Button
          variant="secondary"
          onClick={() =>
            void load(next).then((page) => {
              setEntries([...entries, ...page.entries]);
              setNext(page.next_cursor);
            })
          }
        >
          Show older changes
        </Button>
      ) : null}
    </section>
  );
}
