import { useState } from 'react';
import { useForm } from 'react-final-form';
import { regoLookupMessages, tradeInFieldsOf } from '@dealer/rules/rego';
import { useAppSelector } from '@dealer/state/hooks';
import { selectSite } from '@dealer/state/site-slice';
import { useRegoLookupMutation } from '../rego-lookup-api';

type Failure = { status?: number | string; data?: { message?: string; fields?: Record<string, string> } };

/**
 * "Find my car": looks the rego (and state) up and fills the car's make, model, year and badge,
 * which stay editable. Not found or a register that is down never blocks the form: the shopper
 * types the details instead.
 */
export function RegoLookupField() {
  const site = useAppSelector(selectSite);
  const form = useForm();
  const [lookup, { isLoading }] = useRegoLookupMutation();
  const [note, setNote] = useState<{ tone: 'found' | 'info' | 'error'; text: string } | null>(null);

  const onLookup = async () => {
    const values = form.getState().values as Record<string, unknown>;
    const rego = typeof values.Rego === 'string' ? values.Rego : '';
    const regoState = typeof values.regoState === 'string' ? values.regoState : null;
    setNote(null);
    try {
      const answer = await lookup({ prefix: site.api_prefix, rego, regoState }).unwrap();
      if (!answer.found) {
        setNote({ tone: 'info', text: answer.message });
        return;
      }
      form.batch(() => {
        for (const [name, value] of Object.entries(tradeInFieldsOf(answer.vehicle))) form.change(name, value);
      });
      setNote({
        tone: 'found',
        text: `Found: ${answer.vehicle.year} ${answer.vehicle.make} ${answer.vehicle.model}${answer.vehicle.badge ? ` ${answer.vehicle.badge}` : ''}. Please check the details below.`,
      });
    } catch (error) {
      const failure = error as Failure;
      const fields = failure.data?.fields;
      const text = fields ? Object.values(fields).join(' ') : (failure.data?.message ?? regoLookupMessages.unavailable);
      setNote({ tone: 'error', text });
    }
  };

  return (
    <div className="dp-field dp-rego-lookup">
      <button type="button" className="dp-button dp-button--secondary" onClick={() => void onLookup()} disabled={isLoading}>
        {isLoading ? 'Looking up…' : 'Find my car'}
      </button>
      {note && (
        <p className={`dp-rego-lookup__note dp-rego-lookup__note--${note.tone}`} role={note.tone === 'error' ? 'alert' : 'status'}>
          {note.text}
        </p>
      )}
    </div>
  );
}
