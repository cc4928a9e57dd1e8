import { employmentTypes, type ContentKind } from '@dealer/contracts/content';
import { FieldError } from './field-error';
import {
  DateField,
  IdsField,
  ImageField,
  LocationField,
  RichTextField,
  SelectField,
  TextField,
  type FieldContext,
  type SiteLocation,
  type Upload,
} from './content-fields';
import type { CarType, ContentForm, PresetForm } from './content-model';

type Props = {
  kind: ContentKind;
  ctx: FieldContext;
  form: ContentForm;
  set: (patch: Partial<ContentForm>) => void;
  upload: Upload;
  locations: SiteLocation[] | null;
};

/**
 * The fields of a post (summary, picture, author), an offer (summary, picture, end date, terms, cars),
 * a job (its whole version but the title) or a search page (its preset, title and intro); a page has
 * none of its own.
 */
export function KindFields({ kind, ctx, form, set, upload, locations }: Props) {
  return (
    <>
      {kind === 'landing' ? <LandingFields ctx={ctx} form={form} set={set} /> : null}
      {kind === 'job' ? <JobFields ctx={ctx} form={form} set={set} locations={locations} /> : null}
      {kind === 'post' || kind === 'offer' ? (
        <>
          <TextField
            ctx={ctx}
            path="summary"
            label="Summary"
            multiline
            max={300}
            value={form.summary}
            onChange={(summary) => set({ summary })}
          />
          <ImageField
            ctx={ctx}
            path="image"
            label="Picture"
            optional
            upload={upload}
            value={form.image}
            onChange={(image) => set({ image })}
          />
        </>
      ) : null}
      {kind === 'post' ? (
        <TextField ctx={ctx} path="author" label="Author (optional)" value={form.author ?? ''} onChange={(author) => set({ author })} />
      ) : null}
      {kind === 'offer' ? (
        <>
          <DateField
            ctx={ctx}
            path="expires_at"
            label="Ends on"
            hint="The offer leaves the site at the end of this day."
            value={form.expires_at || undefined}
            onChange={(expires_at) => set({ expires_at: expires_at ?? 0 })}
          />
          <RichTextField ctx={ctx} path="terms_html" label="Terms" html={form.terms_html} onChange={(terms_html) => set({ terms_html })} />
          <IdsField
            ctx={ctx}
            path="car_ids"
            label="Cars (numbers, separated by commas)"
            hint="The cars of the offer, shown under it."
            value={form.car_ids}
            onChange={(car_ids) => set({ car_ids: car_ids ?? [] })}
          />
        </>
      ) : null}
    </>
  );
}

/** A job's own fields: how it is worked, where, its summary and description, and when applications close. */
function JobFields({ ctx, form, set, locations }: Omit<Props, 'kind' | 'upload'>) {
  return (
    <>
      <SelectField
        ctx={ctx}
        path="employment_type"
        label="Employment type"
        value={form.employment_type}
        options={employmentOptions}
        onChange={(employment_type) => set({ employment_type })}
      />
      <LocationField
        ctx={ctx}
        path="location_id"
        label="Location"
        none="Any location"
        locations={locations}
        value={form.location_id}
        onChange={(location_id) => set({ location_id })}
      />
      <TextField
        ctx={ctx}
        path="summary"
        label="Summary"
        multiline
        max={300}
        value={form.summary}
        onChange={(summary) => set({ summary })}
      />
      <RichTextField ctx={ctx} path="body_html" label="Description" html={form.body_html} onChange={(body_html) => set({ body_html })} />
      <DateField
        ctx={ctx}
        path="closes_at"
        label="Applications close on (optional)"
        hint="Empty: open until you take the job down."
        value={form.closes_at}
        onChange={(closes_at) => set({ closes_at })}
      />
    </>
  );
}

const employmentOptions = employmentTypes.map((type) => ({ value: type, label: type }));
const conditions: { value: CarType | ''; label: string }[] = [
  { value: '', label: 'Any' },
  { value: 'new', label: 'New' },
  { value: 'used', label: 'Used' },
  { value: 'demo', label: 'Demo' },
];
const describedBy = (...ids: (string | false | null | undefined)[]) => ids.filter(Boolean).join(' ') || undefined;

/**
 * A search page's preset (the stock it lists: at least one of condition, make, model, body or fuel), and
 * its own title and intro, each taken from the site's template when left empty. A refusal of the preset
 * as a whole (none chosen) shows at the top of its group.
 */
function LandingFields({ ctx, form, set }: Pick<Props, 'ctx' | 'form' | 'set'>) {
  const preset = form.preset;
  const setPreset = (patch: Partial<PresetForm>) => set({ preset: { ...preset, ...patch } });
  const presetError = ctx.fields.message('preset');
  return (
    <>
      <fieldset className="dc-preset" aria-describedby={describedBy('content-preset-hint', presetError && ctx.fields.errorId('preset'))}>
        <legend>The cars it lists</legend>
        <p className="dc-hint" id="content-preset-hint">
          Choose at least one; the page lists the site’s cars that match all of them.
        </p>
        <FieldError path="preset" fields={ctx.fields} />
        <SelectField
          ctx={ctx}
          path="preset.car_type"
          label="Condition"
          value={preset.car_type}
          options={conditions}
          onChange={(car_type) => setPreset({ car_type })}
        />
        <TextField ctx={ctx} path="preset.make" label="Make" value={preset.make} onChange={(make) => setPreset({ make })} />
        <TextField ctx={ctx} path="preset.model" label="Model" value={preset.model} onChange={(model) => setPreset({ model })} />
        <TextField ctx={ctx} path="preset.body" label="Body" value={preset.body} onChange={(body) => setPreset({ body })} />
        <TextField ctx={ctx} path="preset.fuel" label="Fuel" value={preset.fuel} onChange={(fuel) => setPreset({ fuel })} />
      </fieldset>
      <TextField
        ctx={ctx}
        path="title"
        label="Title (optional: from the template when empty)"
        max={120}
        value={form.title}
        onChange={(title) => set({ title })}
      />
      <RichTextField
        ctx={ctx}
        path="intro_html"
        label="Intro (optional)"
        html={form.intro_html}
        onChange={(intro_html) => set({ intro_html })}
      />
    </>
  );
}
