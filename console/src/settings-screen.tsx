import { useEffect, useState, type FormEvent } from 'react';
import { Button } from '@dealer/ui/button';
import { ApiError, consoleCall, type ConsoleSite } from './console-api';
import { FieldError } from './field-error';
import { fieldHelpers, type LocationSettings, type Menus } from './settings-fields';
import { LocationsFieldset } from './settings-locations';
import { LogoField } from './settings-logo';
import { MenusFieldset } from './settings-menus';
import { SwitchesFieldset, type SwitchSettings } from './settings-switches';

type Target =
  { kind: 'adf-file' } | { kind: 'webhook'; url: string } | { kind: 'adf-http'; url: string } | { kind: 'adf-email'; to: string };
type Settings = SwitchSettings & {
  name: string;
  phone: string;
  branding: Record<string, string>;
  third_party: Record<string, string | null | undefined>;
  seo: { title: string; description: string };
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
const colourLabels: Record<string, string> = {
  primary: 'Main colour',
  primaryContrast: 'Text on the main colour',
  accent: 'Accent colour',
  surface: 'Background colour',
  text: 'Text colour',
};

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The part of the settings the dealer changed: whole values, the changed keys of the colours, switches and ids, and the changed locations. */
function changedSettings(before: Settings, after: Settings) {
  const change: Record<string, unknown> = {};
  for (const key of [
    'name',
    'phone',
    'consent_banner',
    'garage_enabled',
    'include_sold_cars_days',
    'just_arrived_days',
    'seo',
    'lead_delivery',
    'navigation',
  ] as const)
    if (!same(before[key], after[key])) change[key] = after[key];
  for (const key of ['branding', 'features', 'third_party'] as const) {
    const was = before[key] as Record<string, unknown>;
    const is = after[key] as Record<string, unknown>;
    const keys = Object.keys(is).filter((name) => !same(was[name], is[name]));
    if (keys.length) change[key] = Object.fromEntries(keys.map((name) => [name, is[name]]));
  }
  const sentLocations = after.locations
    .map((location, index) => ({ location, index }))
    .filter(
      ({ location }) =>
        !same(
          before.locations.find((one) => one.id === location.id),
          location,
        ),
    );
  if (sentLocations.length) change.locations = sentLocations.map(({ location }) => location);
  return { change, sentLocations: sentLocations.map(({ index }) => index) };
}

/** The server names a location by its place in what was sent; the screen by its place on the screen. */
function withLocationIndexes(error: ApiError, sent: number[]) {
  const fields = Object.fromEntries(
    Object.entries(error.fields).map(([path, message]) => [
      path.replace(/^locations\.(\d+)\./, (_, n: string) => `locations.${sent[Number(n)] ?? n}.`),
      message,
    ]),
  );
  return new ApiError(error.message, error.status, fields);
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
  /** The settings as the server last gave them: what a save compares the form with. */
  const [loaded, setLoaded] = useState<Settings | null>(null);
  const [secrets, setSecrets] = useState<Record<string, string>>({});
  const [error, setError] = useState<ApiError | null>(null);
  const [said, setSaid] = useState('');
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    let current = true;
    consoleCall<Settings>('GET', base).then(
      (settings) => {
        if (!current) return;
        setForm(settings);
        setLoaded(settings);
      },
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
      const written = Object.fromEntries(Object.entries(secrets).filter(([, value]) => value.trim() !== ''));
      // Only what the dealer changed since the settings were loaded, so a colleague's change saved
      // meanwhile (another field, another location) is not undone by this screen's older copy.
      const { change, sentLocations } = changedSettings(loaded ?? form, form);
      const saved = await consoleCall<Settings>('POST', base, {
        ...change,
        ...(Object.keys(written).length ? { secrets: written } : {}),
      }).catch((caught: unknown) => {
        throw caught instanceof ApiError ? withLocationIndexes(caught, sentLocations) : caught;
      });
      setForm(saved);
      setLoaded(saved);
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
        {Object.entries(colourLabels).map(([key, label]) => (
          <div className="dp-field dc-settings__colour" key={key}>
            <label htmlFor={`settings-${key}`}>{label}</label>
            <input
              id={`settings-${key}`}
              value={form.branding[key] ?? ''}
              placeholder="#0b3d91"
              onChange={(event) => setForm({ ...form, branding: { ...form.branding, [key]: event.target.value } })}
              {...invalid(`branding.${key}`)}
            />
            <span className="dc-settings__swatch" style={{ background: form.branding[key] }} aria-hidden="true" />
            {fieldError(`branding.${key}`)}
          </div>
        ))}
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

      <SwitchesFieldset value={form} onChange={(switches) => setForm({ ...form, ...switches })} fields={fields} disabled={!canWrite} />

      <fieldset disabled={!canWrite}>
        <legend>Search engines</legend>
        <div className="dp-field">
          <label htmlFor="settings-seo-title">Title</label>
          <input
            id="settings-seo-title"
            value={form.seo.title}
            onChange={(event) => setForm({ ...form, seo: { ...form.seo, title: event.target.value } })}
            {...invalid('seo.title')}
          />
          {fieldError('seo.title')}
        </div>
        <div className="dp-field">
          <label htmlFor="settings-seo-description">Description</label>
          <textarea
            id="settings-seo-description"
            rows={2}
            value={form.seo.description}
            onChange={(event) => setForm({ ...form, seo: { ...form.seo, description: event.target.value } })}
            {...invalid('seo.description')}
          />
          {fieldError('seo.description')}
        </div>
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
