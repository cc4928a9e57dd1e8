import { employmentTypes, type ContentKind } from '@dealer/contracts/content';
import { FieldError } from './field-error';
import {
  DateField,
  IdsField,
  ImageField,
  LocationField,
  RichTextField,
  TextField,
  type FieldContext,
  type SiteLocation,
  type Upload,
} from './content-fields';
import type { ContentForm, EmploymentType } from './content-model';

type Props = {
  kind: ContentKind;
  ctx: FieldContext;
  form: ContentForm;
  set: (patch: Partial<ContentForm>) => void;
  upload: Upload;
  locations: SiteLocation[] | null;
};

/**
 * The fields of a post (summary, picture, author), an offer (summary, picture, end date, terms, cars)
 * or a job (its whole version but the title); a page has none of its own.
 */
export function KindFields({ kind, ctx, form, set, upload, locations }: Props) {
  return (
    <>
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
      <div className="dp-field">
        <label htmlFor="content-employment-type">Employment type</label>
        <select
          id="content-employment-type"
          value={form.employment_type}
          {...ctx.fields.invalid('employment_type')}
          onChange={(event) => set({ employment_type: event.target.value as EmploymentType })}
        >
          {employmentTypes.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </select>
        <FieldError path="employment_type" fields={ctx.fields} />
      </div>
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
