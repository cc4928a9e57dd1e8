import { useEffect, useState, type FormEvent } from 'react';
import { Button } from '@dealer/ui/button';
import { ApiError, consoleCall, type ConsoleSite } from './console-api';
import { FieldError } from './field-error';
import { fieldHelpers, type LocationSettings, type Menus } from './settings-fields';
import { LocationsFieldset } from './settings-locations';
import { LogoField } from './settings-logo';
import { MenusFieldset } from './settings-menus';

type Target =
  { kind: 'adf-file' } | { kind: 'webhook'; url: string } | { kind: 'adf-http'; url: string } | { kind: 'adf-email'; to: string };
type Settings = {
  name: string;
  phone: string;
  branding: Record<string, string>;
  features: Record<string, boolean | string | undefined>;
  third_party: Record<string, string | null | undefined>;
  consent_banner: boolean;
  logo: string;
  navigation: Menus;
  lead_delivery: Target[];
  secrets_set: Record<string, boolean>;
  locations: LocationSettings[];
};

const secretLabels: Record<string, string> = {
  stripe_secret_key: 'Stripe secret key',
  stripe_webhook_secret: 'Stripe webhook signing secret',
  lead_webhook_secret: 'Lead webhook signing secret',
  podium_api_token: 'Podium API token',
  facebook_capi_token: 'Meta Conversions API token',
};
const switchLabels: Record<string, string> = {
  stock_on_homepage: 'Stock on the home page',
  show_postcode: 'Ask for the postcode on forms',
  mobile_only_phone: 'Mobile numbers only on forms',
  fuel_tags: 'Fuel tags on cars',
  authentication: 'Shopper sign-in',
  bot_protection: 'Bot protection',
  hide_chat_on_stock_pages: 'Hide the chat on car pages',
  reserve_coming_soon: 'Deposits on coming-soon cars',
};

/** "9:00" and "17:30" → "9:00 AM - 5:30 PM", as the site shows hours. */
function formatted(open: string, close: string) {
  const twelve = (time: string) => {
    const [h = 0, m = 0] = time.split(':').map(Number);
    return `${((h + 11) % 12) + 1}:${String(m).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}`;
  };
  return `${twelve(open)} - ${twelve(close)}`;
}

/**
 * A site's settings: name and phone, opening hours, switches, third-party ids, lead delivery targets
 * with "Send a test lead", and keys that are written but never shown. Checked by the server with the
 * site's own contract; an error shows beside its field and nothing typed is lost. Read-only for staff.
 */
export function SettingsScreen({ site }: { site: ConsoleSite }) {
  const siteBase = `/api/console/sites/${encodeURIComponent(site.slug)}`;
  const base = `${siteBase}/settings`;
  const canWrite = site.actions.includes('settings.write');
  const [form, setForm] = useState<Settings | null>(null);
  const [secrets, setSecrets] = useState<Record<string, string>>({});
  const [error, setError] = useState<ApiError | null>(null);
  const [said, setSaid] = useState('');
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    let current = true;
    consoleCall<Settings>('GET', base).then(
      (loaded) => current && setForm(loaded),
      (caught: unknown) => current && setError(caught instanceof ApiError ? caught : new ApiError('Could not load the settings.', 0)),
    );
    return () => {
      current = false;
    };
  }, [base]);

  if (!form)
    return error ? (
      <div className="dp-alert dp-alert--destructive" role="alert">
        {error.message}
      </div>
    ) : (
      <p role="status">Loading the settings…</p>
    );

  const fields = fieldHelpers(error);
  const fieldError = (path: string) => <FieldError path={path} fields={fields} />;
  const invalid = fields.invalid;
  const setTarget = (index: number, target: Target) =>
    setForm({ ...form, lead_delivery: form.lead_delivery.map((one, i) => (i === index ? target : one)) });

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    setSaid('');
    try {
      const locations = form.locations.map((location) => ({
        ...location,
        opening_hours: location.opening_hours.map((day) =>
          day.status === 'Open' && day.open && day.close
            ? { ...day, formated_hours: formatted(day.open, day.close) }
            : { ...day, status: 'Closed' as const, open: null, close: null, formated_hours: 'Closed' },
        ),
      }));
      const written = Object.fromEntries(Object.entries(secrets).filter(([, value]) => value.trim() !== ''));
      const saved = await consoleCall<Settings>('POST', base, {
        name: form.name,
        phone: form.phone,
        branding: form.branding,
        features: form.features,
        third_party: form.third_party,
        consent_banner: form.consent_banner,
        lead_delivery: form.lead_delivery,
        navigation: form.navigation,
        locations,
        ...(Object.keys(written).length ? { secrets: written } : {}),
      });
      setForm(saved);
      setSecrets({});
      setError(null);
      setSaid('Settings saved. Shoppers see them on their next page.');
    } catch (caught) {
      setError(caught instanceof ApiError ? caught : new ApiError('The settings could not be saved. Try again.', 0));
    } finally {
      setSaving(false);
    }
  };
  const testLead = async () => {
    try {
      setSaid((await consoleCall<{ message: string }>('POST', `${base}/test-lead`, {})).message);
      setError(null);
    } catch (caught) {
      setError(caught instanceof ApiError ? caught : new ApiError('The test lead could not be sent.', 0));
    }
  };

  return (
    <form className="dc-settings" onSubmit={save} noValidate aria-labelledby="dc-settings-title">
      <h1 id="dc-settings-title">Settings of {site.name}</h1>
      {!canWrite ? <p>Your role can read these settings; a site admin changes them.</p> : null}
      <fieldset disabled={!canWrite}>
        <legend>The site</legend>
        <div className="dp-field">
          <label htmlFor="settings-name">Name</label>
          <input
            id="settings-name"
            value={form.name}
            onChange={(event) => setForm({ ...form, name: event.target.value })}
            {...invalid('name')}
          />
          {fieldError('name')}
        </div>
        <div className="dp-field">
          <label htmlFor="settings-phone">Phone</label>
          <input
            id="settings-phone"
            value={form.phone}
            onChange={(event) => setForm({ ...form, phone: event.target.value })}
            {...invalid('phone')}
          />
          {fieldError('phone')}
        </div>
        <div className="dp-field">
          <label htmlFor="settings-primary">Main colour</label>
          <input
            id="settings-primary"
            value={form.branding.primary ?? ''}
            onChange={(event) => setForm({ ...form, branding: { ...form.branding, primary: event.target.value } })}
            {...invalid('branding.primary')}
          />
          {fieldError('branding.primary')}
        </div>
        <LogoField base={siteBase} logo={form.logo} canWrite={canWrite} onChange={(logo) => setForm({ ...form, logo })} />
      </fieldset>

      <LocationsFieldset
        locations={form.locations}
        onChange={(locations) => setForm({ ...form, locations })}
        fields={fields}
        disabled={!canWrite}
      />

      <MenusFieldset
        menus={form.navigation}
        onChange={(navigation) => setForm({ ...form, navigation })}
        fields={fields}
        disabled={!canWrite}
      />

      <fieldset disabled={!canWrite}>
        <legend>Switches</legend>
        {Object.entries(switchLabels).map(([key, label]) => (
          <label key={key} className="dc-settings__switch">
            <input
              type="checkbox"
              checked={Boolean(form.features[key])}
              onChange={(event) => setForm({ ...form, features: { ...form.features, [key]: event.target.checked } })}
            />{' '}
            {label}
          </label>
        ))}
        <label className="dc-settings__switch">
          <input
            type="checkbox"
            checked={form.consent_banner}
            onChange={(event) => setForm({ ...form, consent_banner: event.target.checked })}
          />{' '}
          Ask for consent before tracking tags load
        </label>
      </fieldset>

      <fieldset disabled={!canWrite}>
        <legend>Third-party ids</legend>
        {['google_analytics_id', 'facebook_pixel', 'google_site_verification'].map((key) => (
          <div className="dp-field" key={key}>
            <label htmlFor={`third-party-${key}`}>{key.replace(/_/g, ' ')}</label>
            <input
              id={`third-party-${key}`}
              value={form.third_party[key] ?? ''}
              onChange={(event) => setForm({ ...form, third_party: { ...form.third_party, [key]: event.target.value || null } })}
              {...invalid(`third_party.${key}`)}
            />
            {fieldError(`third_party.${key}`)}
          </div>
        ))}
      </fieldset>

      <fieldset disabled={!canWrite}>
        <legend>Where leads go</legend>
        {form.lead_delivery.map((target, index) => (
          <div key={index} className="dc-settings__target">
            <label>
              <span>Target {index + 1}</span>
              <select
                value={target.kind}
                onChange={(event) => {
                  const kind = event.target.value as Target['kind'];
                  setTarget(index, kind === 'adf-file' ? { kind } : kind === 'adf-email' ? { kind, to: '' } : { kind, url: '' });
                }}
              >
                <option value="adf-file">ADF file on the server</option>
                <option value="webhook">Webhook (JSON, signed)</option>
                <option value="adf-http">ADF over HTTP</option>
                <option value="adf-email">ADF by e-mail</option>
              </select>
            </label>
            {'url' in target ? (
              <div className="dp-field">
                <label htmlFor={`target-${index}-url`}>Address (https://…)</label>
                <input
                  id={`target-${index}-url`}
                  value={target.url}
                  onChange={(event) => setTarget(index, { ...target, url: event.target.value })}
                  {...invalid(`lead_delivery.${index}.url`)}
                />
                {fieldError(`lead_delivery.${index}.url`)}
              </div>
            ) : null}
            {'to' in target ? (
              <div className="dp-field">
                <label htmlFor={`target-${index}-to`}>E-mail to</label>
                <input
                  id={`target-${index}-to`}
                  value={target.to}
                  onChange={(event) => setTarget(index, { ...target, to: event.target.value })}
                  {...invalid(`lead_delivery.${index}.to`)}
                />
                {fieldError(`lead_delivery.${index}.to`)}
              </div>
            ) : null}
            <Button variant="link" onClick={() => setForm({ ...form, lead_delivery: form.lead_delivery.filter((_, i) => i !== index) })}>
              Remove target {index + 1}
            </Button>
          </div>
        ))}
        <Button
          variant="secondary"
          onClick={() => setForm({ ...form, lead_delivery: [...form.lead_delivery, { kind: 'webhook', url: '' }] })}
        >
          Add a target
        </Button>{' '}
        {canWrite ? (
          <Button variant="secondary" onClick={() => void testLead()}>
            Send a test lead
          </Button>
        ) : null}
      </fieldset>

      <fieldset disabled={!canWrite}>
        <legend>Keys (written here, never shown again)</legend>
        {Object.entries(secretLabels).map(([key, label]) => (
          <div className="dp-field" key={key}>
            <label htmlFor={`secret-${key}`}>
              {label} {form.secrets_set[key] ? '(set)' : '(not set)'}
            </label>
            <input
              id={`secret-${key}`}
              type="password"
              autoComplete="off"
              placeholder={form.secrets_set[key] ? '•••••••• (type to replace)' : ''}
              value={secrets[key] ?? ''}
              onChange={(event) => setSecrets({ ...secrets, [key]: event.target.value })}
              {...invalid(`secrets.${key}`)}
            />
            {fieldError(`secrets.${key}`)}
          </div>
        ))}
      </fieldset>

      {error && Object.keys(error.fields).length > 0 ? <p className="dp-field__error">{error.message}</p> : null}
      {error && Object.keys(error.fields).length === 0 ? (
        <div className="dp-alert dp-alert--destructive" role="alert">
          {error.message}
        </div>
      ) : null}
      <p role="status">{said}</p>
      {canWrite ? (
        <Button type="submit" loading={saving} loadingText="Saving">
          Save settings
        </Button>
      ) : null}
    </form>
  );
}
