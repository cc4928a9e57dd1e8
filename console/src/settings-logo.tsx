import { useState } from 'react';
import { Button } from '@dealer/ui/button';
import { ApiError, consoleCall, consoleUpload } from './console-api';

const maxBytes = 2 * 1024 * 1024;
const types = ['image/png', 'image/jpeg', 'image/webp'];

type Props = { base: string; logo: string; canWrite: boolean; onChange: (logo: string) => void };

/**
 * The site's logo: the one in the header now, a picture to upload in its place (PNG, JPEG or WebP,
 * at most 2 MB; the server fits it to the header), or back to the wordmark drawn from the site's
 * name. Checked here first so a wrong file is named at once, and by the server all the same.
 */
export function LogoField({ base, logo, canWrite, onChange }: Props) {
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState('');
  const [said, setSaid] = useState('');
  const [busy, setBusy] = useState(false);
  const drawn = logo.startsWith('/img/logo/');

  const send = async (action: () => Promise<{ logo: string }>, done: string) => {
    setBusy(true);
    setSaid('');
    try {
      onChange((await action()).logo);
      setError('');
      setFile(null);
      setSaid(done);
    } catch (caught) {
      setError(caught instanceof ApiError ? (caught.fields.logo ?? caught.message) : 'The logo could not be saved. Try again.');
    } finally {
      setBusy(false);
    }
  };
  const upload = () => {
    if (!file) return setError('Choose a picture to upload.');
    if (!types.includes(file.type)) return setError('Upload a PNG, JPEG or WebP picture.');
    if (file.size > maxBytes) return setError('The logo is larger than 2 MB.');
    void send(() => consoleUpload(`${base}/logo`, file), 'Logo uploaded. Shoppers see it on their next page.');
  };

  return (
    <div className="dc-logo">
      <p className="dc-logo__current">
        <img src={logo} alt="The site’s logo now" height={40} />
        {drawn ? <span> (drawn from the site’s name)</span> : null}
      </p>
      {canWrite ? (
        <>
          <div className="dp-field">
            <label htmlFor="settings-logo">New logo (PNG, JPEG or WebP, at most 2 MB)</label>
            <input
              id="settings-logo"
              type="file"
              accept={types.join(',')}
              onChange={(event) => setFile(event.target.files?.[0] ?? null)}
              {...(error ? { 'aria-invalid': true, 'aria-describedby': 'settings-logo-error' } : {})}
            />
            {error ? (
              <p className="dp-field__error" id="settings-logo-error">
                {error}
              </p>
            ) : null}
          </div>
          <Button variant="secondary" loading={busy} loadingText="Uploading" onClick={upload}>
            Upload the logo
          </Button>{' '}
          {!drawn ? (
            <Button
              variant="link"
              disabled={busy}
              onClick={() => void send(() => consoleCall('DELETE', `${base}/logo`), 'The drawn wordmark is back.')}
            >
              Use the drawn wordmark
            </Button>
          ) : null}
          <p role="status">{said}</p>
        </>
      ) : null}
    </div>
  );
}
