import { useEffect, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useAppSelector } from '@dealer/state/hooks';
import { selectSite } from '@dealer/state/site-slice';
import { Alert } from '@dealer/ui/alert';
import { Button } from '@dealer/ui/button';
import { usePageTitle } from '@dealer/ui/page-title';

type Answer = { ok: true; message: string } | { ok: false; message: string; fields: Record<string, string> };

const unreachableMessage = 'We could not reach the dealership’s website. Check your connection and try again.';

/** Posts to the site's own API: this page is only ever served on the site's host. */
async function post(path: string, body: object): Promise<Answer> {
  try {
    const response = await fetch(path, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await response.json().catch(() => ({}))) as { message?: string; fields?: Record<string, string> };
    const message = json.message ?? `Something went wrong on our side (${response.status}). Please try again.`;
    return response.ok ? { ok: true, message } : { ok: false, message, fields: json.fields ?? {} };
  } catch {
    return { ok: false, message: unreachableMessage, fields: {} };
  }
}

/**
 * `/unsubscribe` (issue 24): a shopper stops the site's offers and alert e-mails. With the link
 * of an alert e-mail (`?t=<token>`) it asks first and records the opt-out only when the button is
 * pressed, never on opening: mail scanners open the links in an e-mail. Without one, or when the
 * link does not work, the shopper types the address. Nothing is fetched as the page renders, so
 * the server renders it whole.
 */
export function UnsubscribePage() {
  const site = useAppSelector(selectSite);
  const [params] = useSearchParams();
  const token = params.get('t');
  usePageTitle('Unsubscribe', site.name);
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<{ field: 'email' | null; message: string } | null>(null);
  const [linkBroken, setLinkBroken] = useState(false);
  // The link's token names the shopper: it leaves the address bar before the page view is counted (the
  // shell's effect runs after this one) or any analytics tag reads it, and links followed from here do
  // not pass it on. The page keeps it in memory to confirm with.
  useEffect(() => {
    if (token !== null) window.history.replaceState(window.history.state, '', window.location.pathname);
  }, [token]);

  const confirm = async () => {
    setBusy(true);
    const answer = await post('/api/unsubscribe/confirm', { token });
    setBusy(false);
    if (answer.ok) return setDone(answer.message);
    // A link that does not work: the shopper can still type the address.
    if (answer.fields.token) setLinkBroken(true);
    setError({ field: null, message: answer.message });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    const answer = await post('/api/unsubscribe', { email });
    setBusy(false);
    if (answer.ok) {
      setError(null);
      return setDone(answer.message);
    }
    setError(answer.fields.email ? { field: 'email', message: answer.fields.email } : { field: null, message: answer.message });
  };

  const emailInvalid = error?.field === 'email';
  const asking = token !== null && !linkBroken;
  return (
    <div className="dp-container content-page unsubscribe-page">
      <h1>Unsubscribe</h1>
      <div role="status">{done && <p>{done}</p>}</div>
      {!done &&
        (asking ? (
          <>
            <p>{`Stop offers and alert e-mails from ${site.name}?`}</p>
            <Button loading={busy} onClick={() => void confirm()}>
              Yes, unsubscribe
            </Button>
          </>
        ) : (
          <form noValidate aria-label="Unsubscribe" onSubmit={(event) => void submit(event)}>
            <p>{`Enter your e-mail address and ${site.name} will send it no more offers or alert e-mails. Sign-in codes you ask for still arrive.`}</p>
            <div className={`dp-field${emailInvalid ? ' dp-field--invalid' : ''}`}>
              <label htmlFor="unsubscribe-email">Email</label>
              <input
                id="unsubscribe-email"
                type="email"
                autoComplete="email"
                inputMode="email"
                maxLength={254}
                value={email}
                onChange={(event) => setEmail(event.target.value)}
                aria-invalid={emailInvalid || undefined}
                aria-describedby={emailInvalid ? 'unsubscribe-email-error' : undefined}
              />
              {emailInvalid && (
                <span id="unsubscribe-email-error" className="dp-field__error">
                  {error.message}
                </span>
              )}
            </div>
            <Button type="submit" loading={busy}>
              Unsubscribe
            </Button>
          </form>
        ))}
      {!done && error && !error.field && <Alert tone="destructive">{error.message}</Alert>}
    </div>
  );
}
