import { useState, type FormEvent } from 'react';
import type { PublicSiteConfig } from '@dealer/contracts/site';
import { Alert } from '@dealer/ui/alert';
import { Button } from '@dealer/ui/button';
import { accountApi, setAccount } from './account';
import { readFavourites } from './favourites';

/**
 * Passwordless sign-in: the shopper's e-mail, then the 6-digit code sent to it (or the link in the
 * same e-mail). The cars saved in this browser join the account as it signs in.
 */
export function SignIn({ site }: { site: PublicSiteConfig }) {
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [error, setError] = useState<{ field: 'email' | 'code' | null; message: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const askForCode = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    const answer = await accountApi.requestCode(email);
    setBusy(false);
    if (!answer.ok) return setError({ field: answer.fields.email ? 'email' : null, message: answer.fields.email ?? answer.message });
    setError(null);
    setSentTo(email.trim());
  };

  const verify = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    const answer = await accountApi.verify({ email: sentTo!, code, favourites: readFavourites(site.slug).map((car) => car.id) });
    setBusy(false);
    if (!answer.ok) return setError({ field: 'code', message: answer.fields.code ?? answer.message });
    setAccount(answer.data);
  };

  const fieldError = (field: 'email' | 'code') =>
    error?.field === field ? (
      <span id={`garage-${field}-error`} className="dp-field__error" role="alert">
        {error.message}
      </span>
    ) : null;

  if (!sentTo) {
    return (
      <form className="garage-sign-in" noValidate onSubmit={(event) => void askForCode(event)} aria-label="Sign in">
        <h2>Sign in to your garage</h2>
        <p>
          Keep your saved cars and searches on every device, and hear when a saved car drops in price. No password: we e-mail you a code.
        </p>
        <div className={`dp-field${error?.field === 'email' ? ' dp-field--invalid' : ''}`}>
          <label htmlFor="garage-email">Email address</label>
          <input
            id="garage-email"
            type="email"
            autoComplete="email"
            inputMode="email"
            maxLength={254}
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            aria-invalid={error?.field === 'email' || undefined}
          />
          {fieldError('email')}
        </div>
        {error && !error.field && <Alert tone="destructive">{error.message}</Alert>}
        <Button type="submit" loading={busy}>
          Email me a code
        </Button>
      </form>
    );
  }
  return (
    <form className="garage-sign-in" noValidate onSubmit={(event) => void verify(event)} aria-label="Enter your code">
      <h2>Check your e-mail</h2>
      <p>{`We sent a 6-digit code to ${sentTo}. It works for 10 minutes; the link in the same e-mail signs you in too.`}</p>
      <div className={`dp-field${error?.field === 'code' ? ' dp-field--invalid' : ''}`}>
        <label htmlFor="garage-code">Code</label>
        <input
          id="garage-code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={12}
          value={code}
          onChange={(event) => setCode(event.target.value)}
          aria-invalid={error?.field === 'code' || undefined}
        />
        {fieldError('code')}
      </div>
      {error && !error.field && <Alert tone="destructive">{error.message}</Alert>}
      <Button type="submit" loading={busy}>
        Sign in
      </Button>{' '}
      <Button variant="link" onClick={() => setSentTo(null)}>
        Use another e-mail address
      </Button>
    </form>
  );
}
