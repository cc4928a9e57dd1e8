import { useEffect, useState, type FormEvent } from 'react';
import { Button } from '@dealer/ui/button';
import {
  ConsoleApiError,
  leadStatuses,
  shopperName,
  type InboxLead,
  type LeadDetail,
  type LeadStatus,
  type leadsApi,
} from './leads-inbox-api';

const statusLabel: Record<string, string> = { new: 'New', contacted: 'Contacted', appointment: 'Appointment', sold: 'Sold', lost: 'Lost' };
const when = (ms: number) => new Date(ms).toLocaleString('en-AU', { dateStyle: 'medium', timeStyle: 'short' });
const text = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

type Props = {
  api: ReturnType<typeof leadsApi>;
  leadId: number;
  canUpdate: boolean;
  onChanged(lead: Pick<InboxLead, 'id' | 'dealer_status' | 'assignee_id'>): void;
  onClose(): void;
};

/** One lead: every field the shopper sent, files, the delivery log per target with "Retry now", notes and the workflow. */
export function LeadPanel({ api, leadId, canUpdate, onChanged, onClose }: Props) {
  const [detail, setDetail] = useState<LeadDetail | null>(null);
  const [status, setStatus] = useState<LeadStatus>('new');
  const [assignee, setAssignee] = useState('');
  const [note, setNote] = useState('');
  const [error, setError] = useState<ConsoleApiError | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const show = (loaded: LeadDetail) => {
    setDetail(loaded);
    setStatus(loaded.lead.dealer_status);
    setAssignee(loaded.lead.assignee_id === null ? '' : String(loaded.lead.assignee_id));
  };
  const reload = async () => show(await api.detail(leadId));
  useEffect(() => {
    let current = true;
    api.detail(leadId).then(
      (loaded) => current && show(loaded),
      (caught: unknown) =>
        current && setError(caught instanceof ConsoleApiError ? caught : new ConsoleApiError('The lead could not be loaded.')),
    );
    return () => {
      current = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- one lead per panel (keyed by its id)
  }, []);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    setSaved(null);
    try {
      const changed = await api.change(leadId, {
        status,
        assignee_id: assignee === '' ? null : Number(assignee),
        ...(note.trim() ? { note } : {}),
      });
      onChanged({ id: leadId, dealer_status: changed.status, assignee_id: changed.assignee_id });
      setNote('');
      setError(null);
      setSaved(`Saved: ${statusLabel[changed.status]}.`);
      await reload();
    } catch (caught) {
      // What was typed stays in the form.
      setError(caught instanceof ConsoleApiError ? caught : new ConsoleApiError('The change could not be saved. Try again.'));
    } finally {
      setSaving(false);
    }
  };

  if (!detail)
    return (
      <aside className="dc-lead" aria-label="Lead">
        {error ? (
          <div className="dp-alert dp-alert--destructive" role="alert">
            {error.message}
          </div>
        ) : (
          <p>Loading the lead…</p>
        )}
      </aside>
    );
  const { lead } = detail;
  return (
    <aside className="dc-lead" aria-labelledby="dc-lead-title">
      <header className="dc-lead__header">
        <h2 id="dc-lead-title">
          {shopperName(lead.payload)} · {lead.category}
        </h2>
        <Button variant="link" onClick={onClose}>
          Close
        </Button>
      </header>
      <p>Received {when(lead.created_at)}</p>
      <h3>What the shopper sent</h3>
      <dl className="dc-lead__fields">
        {Object.entries(lead.payload).map(([key, value]) => (
          <div key={key}>
            <dt>{key}</dt>
            <dd>{text(value)}</dd>
          </div>
        ))}
      </dl>
      {detail.files.length > 0 ? (
        <>
          <h3>Files</h3>
          <ul>
            {detail.files.map((file) => (
              <li key={file.id}>
                <a href={`${api.base}/leads/${leadId}/files/${file.id}`} download>
                  {file.name}
                </a>{' '}
                ({Math.ceil(file.size / 1024)} KB)
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <h3>Delivery</h3>
      {detail.jobs.length === 0 ? <p>No delivery targets ({lead.delivery.state.replace(/_/g, ' ')}).</p> : null}
      <ul className="dc-lead__jobs">
        {detail.jobs.map((job) => (
          <li key={job.id}>
            {job.target}: {job.status}, {job.attempts} attempt{job.attempts === 1 ? '' : 's'}
            {job.last_error ? ` (${job.last_error})` : ''}
          </li>
        ))}
      </ul>
      {canUpdate && detail.jobs.some((job) => job.status === 'dead') ? (
        <Button variant="secondary" onClick={() => void api.retry(leadId).then(reload)}>
          Retry now
        </Button>
      ) : null}
      <h3>Notes</h3>
      {detail.notes.length === 0 ? <p>No notes yet.</p> : null}
      <ul className="dc-lead__notes">
        {detail.notes.map((one) => (
          <li key={one.id}>
            <p>{one.body}</p>
            <small>
              {one.author}, {when(one.created_at)}
            </small>
          </li>
        ))}
      </ul>
      {canUpdate ? (
        <form onSubmit={save} className="dc-lead__workflow" aria-label="Follow-up">
          <div className={`dp-field${error?.fields.status ? ' dp-field--invalid' : ''}`}>
            <label htmlFor="lead-status">Status</label>
            <select id="lead-status" value={status} onChange={(event) => setStatus(event.target.value as LeadStatus)}>
              {leadStatuses.map((one) => (
                <option key={one} value={one}>
                  {statusLabel[one]}
                </option>
              ))}
            </select>
            {error?.fields.status ? <p className="dp-field__error">{error.fields.status}</p> : null}
          </div>
          <div className={`dp-field${error?.fields.assignee_id ? ' dp-field--invalid' : ''}`}>
            <label htmlFor="lead-assignee">Assigned to</label>
            <select id="lead-assignee" value={assignee} onChange={(event) => setAssignee(event.target.value)}>
              <option value="">Nobody</option>
              {detail.assignees.map((user) => (
                <option key={user.id} value={user.id}>
                  {user.name ?? user.email}
                </option>
              ))}
            </select>
            {error?.fields.assignee_id ? <p className="dp-field__error">{error.fields.assignee_id}</p> : null}
          </div>
          <div className={`dp-field${error?.fields.note ? ' dp-field--invalid' : ''}`}>
            <label htmlFor="lead-note">Note</label>
            <textarea id="lead-note" value={note} onChange={(event) => setNote(event.target.value)} rows={3} />
            {error?.fields.note ? <p className="dp-field__error">{error.fields.note}</p> : null}
          </div>
          {error && Object.keys(error.fields).length === 0 ? (
            <div className="dp-alert dp-alert--destructive" role="alert">
              {error.message}
            </div>
          ) : null}
          {saved ? (
            <p role="status" className="dc-lead__saved">
              {saved}
            </p>
          ) : null}
          <Button type="submit" loading={saving} loadingText="Saving">
            Save
          </Button>
        </form>
      ) : null}
    </aside>
  );
}
