import { useEffect, useState, type FormEvent } from 'react';
import { Button } from '@dealer/ui/button';
import { ApiError, consoleCall } from './console-api';
import { FieldError } from './field-error';
import { fieldHelpers } from './settings-fields';

type NewLocation = {
  name: string;
  phone: string;
  email: string;
  address: { street: string; city: string; state: string; postcode: string };
};
type Draft = {
  template: string;
  name: string;
  slug: string;
  locale: string;
  domain_name: string;
  dealership_group: string;
  manufacturer: string;
  primary: string;
  locations: NewLocation[];
};

const emptyLocation: NewLocation = { name: '', phone: '', email: '', address: { street: '', city: '', state: '', postcode: '' } };
const locales = [
  { id: 'en-AU', label: 'Australia' },
  { id: 'en-NZ', label: 'New Zealand' },
  { id: 'en-US', label: 'United States' },
];
const slugOf = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

/**
 * Opening a dealer site (operators): its kind (template), name and address, country, domain, main
 * colour and locations. The server makes the rest from the template; the new site serves at once and
 * its settings open next. Errors come back beside their fields and nothing typed is lost.
 */
export function NewSiteScreen({ onOpened }: { onOpened: (slug: string) => void }) {
  const [templates, setTemplates] = useState<{ id: string; label: string }[]>([]);
  const [draft, setDraft] = useState<Draft>({
    template: 'dealer-group',
    name: '',
    slug: '',
    locale: 'en-AU',
    domain_name: '',
    dealership_group: '',
    manufacturer: '',
    primary: '',
    locations: [emptyLocation],
  });
  const [slugTouched, setSlugTouched] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [saving, setSaving] = useState(false);
  const fields = fieldHelpers(error);

  useEffect(() => {
    consoleCall<{ templates: { id: string; label: string }[] }>('GET', '/api/console/site-templates').then(
      (answer) => setTemplates(answer.templates),
      (caught: unknown) => setError(caught instanceof ApiError ? caught : new ApiError('The kinds of site could not be loaded.', 0)),
    );
  }, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    try {
      const made = await consoleCall<{ slug: string }>('POST', '/api/console/sites', {
        template: draft.template,
        name: draft.name,
        slug: draft.slug,
        locale: draft.locale,
        domain_name: draft.domain_name.trim() || null,
        dealership_group: draft.dealership_group.trim() || null,
        manufacturer: draft.manufacturer.trim() || null,
        branding: draft.primary.trim() ? { primary: draft.primary.trim() } : {},
        locations: draft.locations.map((location) => ({ ...location, email: location.email.trim() || null })),
      });
      onOpened(made.slug);
    } catch (caught) {
      setError(caught instanceof ApiError ? caught : new ApiError('The site could not be opened. Try again.', 0));
    } finally {
      setSaving(false);
    }
  };

  const text = (path: string, label: string, value: string, set: (value: string) => void, hint?: string) => (
    <div className="dp-field" key={path}>
      <label htmlFor={`new-site-${path}`}>{label}</label>
      {hint ? <p className="dc-hint">{hint}</p> : null}
      <input id={`new-site-${path}`} value={value} onChange={(event) => set(event.target.value)} {...fields.invalid(path)} />
      <FieldError path={path} fields={fields} />
    </div>
  );
  const setLocation = (index: number, change: Partial<NewLocation>) =>
    setDraft({ ...draft, locations: draft.locations.map((one, i) => (i === index ? { ...one, ...change } : one)) });

  return (
    <form className="dc-settings" onSubmit={submit} noValidate aria-labelledby="dc-new-site-title">
      <h1 id="dc-new-site-title">Open a new site</h1>
      <fieldset>
        <legend>The site</legend>
        <div className="dp-field">
          <label htmlFor="new-site-template">Kind of site</label>
          <select id="new-site-template" value={draft.template} onChange={(event) => setDraft({ ...draft, template: event.target.value })}>
            {templates.map((template) => (
              <option key={template.id} value={template.id}>
                {template.label}
              </option>
            ))}
          </select>
          <FieldError path="template" fields={fields} />
        </div>
        {text('name', 'Name', draft.name, (name) => setDraft({ ...draft, name, slug: slugTouched ? draft.slug : slugOf(name) }))}
        {text(
          'slug',
          'Address name',
          draft.slug,
          (slug) => {
            setSlugTouched(true);
            setDraft({ ...draft, slug });
          },
          'The site answers at <address name>.<platform domain> until its own domain points here.',
        )}
        <div className="dp-field">
          <label htmlFor="new-site-locale">Country</label>
          <select id="new-site-locale" value={draft.locale} onChange={(event) => setDraft({ ...draft, locale: event.target.value })}>
            {locales.map((locale) => (
              <option key={locale.id} value={locale.id}>
                {locale.label}
              </option>
            ))}
          </select>
        </div>
        {text(
          'domain_name',
          'Domain (optional)',
          draft.domain_name,
          (domain_name) => setDraft({ ...draft, domain_name }),
          'Like www.example.com.au',
        )}
        {text('dealership_group', 'Dealer group (optional)', draft.dealership_group, (dealership_group) =>
          setDraft({ ...draft, dealership_group }),
        )}
        {text('manufacturer', 'Brand (a brand’s pre-owned site names it)', draft.manufacturer, (manufacturer) =>
          setDraft({ ...draft, manufacturer }),
        )}
        {text('branding.primary', 'Main colour (optional)', draft.primary, (primary) => setDraft({ ...draft, primary }), 'Like #0b3d91')}
      </fieldset>
      <fieldset>
        <legend>Locations</legend>
        <FieldError path="locations" fields={fields} />
        {draft.locations.map((location, index) => (
          <section key={index} className="dc-location" aria-label={`Location ${index + 1}`}>
            <h3>{index === 0 ? 'Main location' : `Location ${index + 1}`}</h3>
            {text(`locations.${index}.name`, 'Name', location.name, (name) => setLocation(index, { name }))}
            {text(`locations.${index}.phone`, 'Phone', location.phone, (phone) => setLocation(index, { phone }))}
            {text(`locations.${index}.email`, 'E-mail (optional)', location.email, (email) => setLocation(index, { email }))}
            {(['street', 'city', 'state', 'postcode'] as const).map((part) =>
              text(
                `locations.${index}.address.${part}`,
                { street: 'Street', city: 'Suburb or city', state: 'State', postcode: 'Postcode' }[part],
                location.address[part],
                (value) => setLocation(index, { address: { ...location.address, [part]: value } }),
              ),
            )}
            {index > 0 ? (
              <Button
                variant="link"
                onClick={() => setDraft({ ...draft, locations: draft.locations.filter((_, i) => i !== index) })}
              >{`Remove location ${index + 1}`}</Button>
            ) : null}
          </section>
        ))}
        <Button variant="secondary" onClick={() => setDraft({ ...draft, locations: [...draft.locations, emptyLocation] })}>
          Add a location
        </Button>
      </fieldset>
      {error && Object.keys(error.fields).length > 0 ? <p className="dp-field__error">{error.message}</p> : null}
      {error && Object.keys(error.fields).length === 0 ? (
        <div className="dp-alert dp-alert--destructive" role="alert">
          {error.message}
        </div>
      ) : null}
      <Button type="submit" loading={saving} loadingText="Opening the site">
        Open the site
      </Button>
    </form>
  );
}
