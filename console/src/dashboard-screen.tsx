import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { ApiError, type ConsoleSite } from './console-api';

const LeadsChart = lazy(() => import(/* webpackChunkName: "dashboard-chart" */ './dashboard-chart'));

type Board = {
  days: string[];
  leads_by_form: { day: string; form: string; count: number }[];
  leads_by_location: { day: string; location_id: string | null; count: number }[];
  funnel: { visits: number; car_views: number; leads: number };
  top_cars: { slug: string; name: string | null; views: number }[];
  delivery: Record<string, number>;
  locations: Record<string, string>;
};

/** Rows of (day, key, count) as one series of daily counts per key. */
function seriesOf<R extends { day: string; count: number }>(days: string[], rows: R[], keyOf: (row: R) => string) {
  const byKey = new Map<string, number[]>();
  for (const row of rows) {
    const counts = byKey.get(keyOf(row)) ?? days.map(() => 0);
    const at = days.indexOf(row.day);
    if (at >= 0) counts[at] = (counts[at] ?? 0) + row.count;
    byKey.set(keyOf(row), counts);
  }
  return [...byKey].map(([label, counts]) => ({ label, counts }));
}

/** A site at a glance: leads per day by form and by location, the funnel, the most viewed cars, and whether leads are reaching the dealer. */
export function DashboardScreen({ site }: { site: ConsoleSite }) {
  const [board, setBoard] = useState<Board | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [days, setDays] = useState(30);

  useEffect(() => {
    let current = true;
    fetch(`/api/console/sites/${encodeURIComponent(site.slug)}/dashboard?days=${days}`, { credentials: 'same-origin' })
      .then(async (res) => {
        const body = (await res.json()) as Board & { message?: string };
        if (!res.ok) throw new ApiError(body.message ?? `The console answered ${res.status}.`, res.status);
        return body;
      })
      .then(
        (loaded) => current && setBoard(loaded),
        (caught: unknown) => current && setError(caught instanceof Error ? caught.message : 'The dashboard could not be loaded.'),
      );
    return () => {
      current = false;
    };
  }, [site.slug, days]);

  const forms = useMemo(() => (board ? seriesOf(board.days, board.leads_by_form, (row) => row.form) : []), [board]);
  const places = useMemo(
    () =>
      board
        ? seriesOf(board.days, board.leads_by_location, (row) => (row.location_id && board.locations[row.location_id]) || 'No location')
        : [],
    [board],
  );

  if (error)
    return (
      <div className="dp-alert dp-alert--destructive" role="alert">
        {error}
      </div>
    );
  if (!board) return <p role="status">Loading the dashboard…</p>;
  const failing = (board.delivery.failed ?? 0) + (board.delivery.dead ?? 0);
  return (
    <section aria-labelledby="dc-dashboard-title" className="dc-dashboard">
      <h1 id="dc-dashboard-title">{site.name} at a glance</h1>
      <label className="dp-field dc-dashboard__days">
        <span>Period</span>
        <select value={days} onChange={(event) => setDays(Number(event.target.value))}>
          <option value={7}>Last 7 days</option>
          <option value={30}>Last 30 days</option>
          <option value={90}>Last 90 days</option>
        </select>
      </label>
      <dl className="dc-dashboard__funnel" aria-label="Funnel">
        <div>
          <dt>Visits</dt>
          <dd>{board.funnel.visits}</dd>
        </div>
        <div>
          <dt>Car views</dt>
          <dd>{board.funnel.car_views}</dd>
        </div>
        <div>
          <dt>Leads</dt>
          <dd>{board.funnel.leads}</dd>
        </div>
        <div>
          <dt>Lead deliveries waiting</dt>
          <dd>{board.delivery.pending ?? 0}</dd>
        </div>
        <div>
          <dt>Lead deliveries failing</dt>
          <dd className={failing > 0 ? 'dc-dashboard__bad' : undefined}>{failing}</dd>
        </div>
      </dl>
      <Suspense fallback={<p>Drawing the charts…</p>}>
        {forms.length > 0 ? <LeadsChart title="Leads per day by form" days={board.days} series={forms} /> : <p>No leads in this period.</p>}
        {places.length > 0 ? <LeadsChart title="Leads per day by location" days={board.days} series={places} /> : null}
      </Suspense>
      <h2>Most viewed cars</h2>
      {board.top_cars.length === 0 ? <p>No car views in this period.</p> : null}
      <ol>
        {board.top_cars.map((car) => (
          <li key={car.slug}>
            {car.name ?? car.slug}: {car.views} views
          </li>
        ))}
      </ol>
    </section>
  );
}
