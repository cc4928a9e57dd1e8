import { useEffect, useState, type FormEvent } from 'react';
import { Button } from '@dealer/ui/button';
import { ApiError, consoleApi, type Me } from './console-api';

/** Sign-in by a code e-mailed to the user (or the link in that e-mail, which lands here with #token=…). */
export function SignInPage({ onSignedIn }: { onSignedIn(me: Me): void }) {
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const token = /#token=([A-Za-z0-9_-]{43})/.exec(window.location.hash)?.[1];
    if (!token) return;
    history.replaceState(null, '', '/');
    consoleApi.verify({ token }).then(onSignedIn, (caught: unknown) => setError(caught instanceof ApiError ? caught : null));
  }, [onSignedIn]);

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
      setError(null);
    } catch (caught) {
      setError(caught instanceof ApiError ? caught : new ApiError('The console could not be reached. Try again.', 0));
    } finally {
      setBusy(false);
    }
  };
  const ask = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => setSent((await consoleApi.askCode(email)).message));
  };
  const verify = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => onSignedIn(await consoleApi.verify({ email, code })));
  };
  const fieldError = (name: string) =>
    error?.fields[name] ? (
      <p className="dp-field__error" id={`${name}-error`}>
        {error.fields[name]}
      </p>
    ) : null;

  return (
    <main className="dc-sign-in">
      <h1>Dealer console</h1>
      <form onSubmit={sent ? verify : ask} className="dp-form-card" aria-label="Sign in">
        <div className={`dp-field${error?.fields.email ? ' dp-field--invalid' : ''}`}>
          <label htmlFor="email">Work e-mail</label>
          <input
            id="email"
            type="email"
            autoComplete="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            aria-describedby={error?.fields.email ? 'email-error' : undefined}
            required
          />
          {fieldError('email')}
        </div>
        {sent ? (
          <>
            <p role="status">{sent}</p>
            <div className={`dp-field${error?.fields.code ? ' dp-field--invalid' : ''}`}>
              <label htmlFor="code">6-digit code</label>
              <input
                id="code"
                inputMode="numeric"
                autoComplete="one-time-code"
                value={code}
                onChange={(event) => setCode(event.target.value)}
                aria-describedby={error?.fields.code ? 'code-error' : undefined}
                required
              />
              {fieldError('code')}
            </div>
          </>
        ) : null}
        {error && Object.keys(error.fields).length === 0 ? (
          <div className="dp-alert dp-alert--destructive" role="alert">
            {error.message}
          </div>
        ) : null}
        <div className="dp-form-card__actions">
          <Button type="submit" loading={busy}>
            {sent ? 'Sign in' : 'E-mail me a code'}
          </Button>
          {sent ? (
            <Button variant="link" onClick={() => setSent(null)}>
              Use another address
            </Button>
          ) : null}
        </div>
      </form>
    </main>
  );
}
