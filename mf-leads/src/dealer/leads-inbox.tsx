import { useEffect, useState, type FormEvent } from 'react';
import type { LeadsInboxProps } from '@dealer/contracts/remote-modules';
import { Button } from '@dealer/ui/button';
import {
  ConsoleApiError,
  leadStatuses,
  leadsApi,
  shopperName,
  type InboxChoices,
  type InboxFilter,
  type InboxLead,
} from './leads-inbox-api';
import { LeadPanel } from './lead-panel';
import './leads-inbox.css';

const statusLabel: Record<string, string> = { new: 'New', contacted: 'Contacted', appointment: 'Appointment', sold: 'Sold', lost: 'Lost' };
export const statusText = (status: string) => statusLabel[status] ?? status;
const when = (ms: number) => new Date(ms).toLocaleString('en-AU', { dateStyle: 'medium', timeStyle: 'short' });

/**
 * The dealer's leads inbox (console screen of mf-leads): the site's leads filtered by status,
 * form, location, assignee, dates and text, a page at a time; a lead's page beside the list; CSV of the filtered set.
 */
export default function LeadsInbox({ apiBase, canUpdate, canExport }: LeadsInboxProps) {
  const api = leadsApi(apiBase);
  const [draft, setDraft] = useState<InboxFilter>({});
  const [filter, setFilter] = useState<InboxFilter>({});
  const [leads, setLeads] = useState<InboxLead[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<ConsoleApiError | null>(null);
  const [loading, setLoading] = useState(true);
  const [open, setOpen] = useState<number | null>(null);
  const [choices, setChoices] = useState<InboxChoices>({ forms: [], locations: [], assignees: [] });
  /** New leads heard of while the inbox is open: each reloads the first page. */
  const [arrived, setArrived] = useState(0);

  // New leads arrive live (server-sent events); the browser reconnects by itself after a drop.
  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    const events = new EventSource(`${apiBase}/leads/events`);
    events.addEventListener('lead', () => setArrived((count) => count + 1));
    return () => events.close();
  }, [apiBase]);

  // What the filters offer; the inbox works without them (the lists just stay empty).
  useEffect(() => {
    let current = true;
    leadsApi(apiBase)
      .choices()
      .then(
        (loaded) => current && setChoices(loaded),
        () => undefined,
      );
    return () => {
      current = false;
    };
  }, [apiBase]);

  const failed = (caught: unknown) =>
    setError(caught instanceof ConsoleApiError ? caught : new ConsoleApiError('The leads could not be loaded. Try again.'));

  // The first page whenever the filter changes (a page that comes back after a newer filter is dropped).
  useEffect(() => {
    let current = true;
    leadsApi(apiBase)
      .list(filter, null)
      .then(
        (page) => {
          if (!current) return;
          setLeads(page.leads);
          setNext(page.next_cursor);
          setError(null);
        },
        (caught: unknown) => current && failed(caught),
      )
      .finally(() => current && setLoading(false));
    return () => {
      current = false;
    };
  }, [apiBase, filter, arrived]);

  const more = async (cursor: string) => {
    setLoading(true);
    try {
      const page = await api.list(filter, cursor);
      setLeads((shown) => [...shown, ...page.leads]);
      setNext(page.next_cursor);
    } catch (caught) {
      failed(caught);
    } finally {
      setLoading(false);
    }
  };

  const search = (event: FormEvent) => {
    event.preventDefault();
    setLoading(true);
    setFilter({ ...draft });
  };
  const field = (name: keyof InboxFilter) => ({
    id: `inbox-${name}`,
    value: draft[name] ?? '',
    onChange: (event: { target: { value: string } }) => setDraft({ ...draft, [name]: event.target.value }),
    'aria-invalid': error?.fields[name] ? true : undefined,
    'aria-describedby': error?.fields[name] ? `inbox-${name}-error` : undefined,
  });
  const fieldError = (name: keyof InboxFilter) =>
    error?.fields[name] ? (
      <p className="dp-field__error" id={`inbox-${name}-error`}>
        {error.fields[name]}
      </p>
    ) : null;

  return (
    <section className="dc-inbox" aria-labelledby="dc-inbox-title">
      <h1 id="dc-inbox-title">Leads</h1>
      <form className="dc-inbox__filters" onSubmit={search} role="search" aria-label="Filter leads">
        <div className="dp-field">
          <label htmlFor="inbox-status">Status</label>
          <select {...field('status')}>
            <option value="">Any status</option>
            {leadStatuses.map((status) => (
              <option key={status} value={status}>
                {statusText(status)}
              </option>
            ))}
          </select>
          {fieldError('status')}
        </div>
        <div className="dp-field">
          <label htmlFor="inbox-form">Form</label>
          <select {...field('form')}>
            <option value="">Any form</option>
            {choices.forms.map((form) => (
              <option key={form} value={form}>
                {form}
              </option>
            ))}
          </select>
        </div>
        {choices.locations.length > 1 ? (
          <div className="dp-field">
            <label htmlFor="inbox-location">Location</label>
            <select {...field('location')}>
              <option value="">Any location</option>
              {choices.locations.map((location) => (
                <option key={location.id} value={String(location.id)}>
                  {location.name}
                </option>
              ))}
            </select>
            {fieldError('location')}
          </div>
        ) : null}
        <div className="dp-field">
          <label htmlFor="inbox-assignee">Assigned to</label>
          <select {...field('assignee')}>
            <option value="">Anyone</option>
            {choices.assignees.map((person) => (
              <option key={person.id} value={String(person.id)}>
                {person.name ?? person.email}
              </option>
            ))}
          </select>
        </div>
        <div className="dp-field">
          <label htmlFor="inbox-from">From</label>
          <input type="date" {...field('from')} />
          {fieldError('from')}
        </div>
        <div className="dp-field">
          <label htmlFor="inbox-to">To</label>
          <input type="date" {...field('to')} />
          {fieldError('to')}
        </div>
        <div className="dp-field">
          <label htmlFor="inbox-q">Search</label>
          <input type="search" {...field('q')} placeholder="Name, e-mail, words" />
          {fieldError('q')}
        </div>
        <div className="dc-inbox__filter-actions">
          <Button type="submit">Show leads</Button>
          {canExport ? (
            <a className="dp-button dp-button--secondary" href={api.csvUrl(filter)} download>
              Export CSV
            </a>
          ) : null}
        </div>
      </form>
      <p role="status" className="dc-inbox__live">
        {arrived > 0 ? `${arrived} new lead${arrived === 1 ? '' : 's'} since you opened the inbox.` : ''}
      </p>
      {error && Object.keys(error.fields).length === 0 ? (
        <div className="dp-alert dp-alert--destructive" role="alert">
          {error.message}
        </div>
      ) : null}
      <div className="dc-inbox__body">
        <table className="dc-inbox__table">
          <caption className="dp-visually-hidden">Leads, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Received</th>
              <th scope="col">Shopper</th>
              <th scope="col">Form</th>
              <th scope="col">Status</th>
              <th scope="col">Delivery</th>
            </tr>
          </thead>
          <tbody>
            {leads.map((lead) => (
              <tr key={lead.id} aria-selected={open === lead.id} className={open === lead.id ? 'dc-inbox__row--open' : undefined}>
                <td>{when(lead.created_at)}</td>
                <td>
                  <button type="button" className="dp-button dp-button--link" onClick={() => setOpen(lead.id)}>
                    {shopperName(lead.payload)}
                  </button>
                </td>
                <td>{lead.category}</td>
                <td>
                  <span className={`dc-status dc-status--${lead.dealer_status}`}>{statusText(lead.dealer_status)}</span>
                </td>
                <td>{lead.delivery.state.replace(/_/g, ' ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {!loading && leads.length === 0 ? <p className="dc-inbox__empty">No leads match.</p> : null}
        {next ? (
          <Button variant="secondary" loading={loading} onClick={() => void more(next)}>
            Show more
          </Button>
        ) : null}
        {open !== null ? (
          <LeadPanel
            key={open}
            api={api}
            leadId={open}
            canUpdate={canUpdate}
            onChanged={(changed) => setLeads((shown) => shown.map((lead) => (lead.id === changed.id ? { ...lead, ...changed } : lead)))}
            onClose={() => setOpen(null)}
          />
        ) : null}
      </div>
    </section>
  );
}
