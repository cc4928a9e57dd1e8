// The fields the content editor is made of, each with its label, its counter or hint, and the server's
// message for it underneath (tied by aria-describedby). Paths are those of the form or of one block.
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Button } from '@dealer/ui/button';
import { ApiError } from './console-api';
import { FieldError } from './field-error';
import { dayOf, endOfDay, idsOf, type ContentFields, type ContentImage } from './content-model';

// Lexical loads with the first field of formatted text, not with the console (see dashboard-chart).
const RichTextEditor = lazy(() => import(/* webpackChunkName: "rich-text-editor" */ './rich-text-editor'));

/** What every field needs: an id prefix unique on the page, the messages it may show, whether it is read-only. */
export type FieldContext = { scope: string; fields: ContentFields; disabled: boolean };

const describedBy = (...ids: (string | false | null | undefined)[]) => ids.filter(Boolean).join(' ') || undefined;
const idOf = (ctx: FieldContext, path: string) => `${ctx.scope}-${path}`.replace(/\W/g, '-');

/** A message under a field or a list; `id` ties it to what it is about. */
export const FieldMessage = ({ message, id }: { message: string | null; id?: string }) =>
  message ? (
    <p className="dp-field__error" id={id}>
      {message}
    </p>
  ) : null;

/**
 * An input's attributes for its hint, its counter and its message, the message last (a screen reader
 * says it last; tests read it there).
 */
const ariaOf = (
  id: string,
  { hint, counted, message, errorId }: { hint: unknown; counted?: boolean; message: string | null; errorId: string },
) => ({
  'aria-invalid': message ? true : undefined,
  'aria-describedby': describedBy(hint ? `${id}-hint` : null, counted && `${id}-count`, message && errorId),
});

/** What a one-input field shows around its input: the label, the hint, and the message under it. */
function FieldFrame({
  id,
  label,
  hint,
  message,
  errorId,
  children,
}: {
  id: string;
  label: string;
  hint: ReactNode;
  message: string | null;
  errorId: string;
  children: ReactNode;
}) {
  return (
    <div className="dp-field">
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <p className="dc-hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {children}
      <FieldMessage message={message} id={errorId} />
    </div>
  );
}

type TextProps = {
  ctx: FieldContext;
  path: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** A live counter ("12 of 70 characters") when the field has a limit worth seeing. */
  max?: number;
  hint?: ReactNode;
  multiline?: boolean;
  type?: 'text' | 'email' | 'tel';
  readOnly?: boolean;
};

export function TextField({ ctx, path, label, value, onChange, max, hint, multiline, type = 'text', readOnly }: TextProps) {
  const id = idOf(ctx, path);
  const message = ctx.fields.message(path);
  const errorId = ctx.fields.errorId(path);
  const props = { id, value, readOnly, disabled: ctx.disabled, ...ariaOf(id, { hint, counted: Boolean(max), message, errorId }) };
  return (
    <FieldFrame id={id} label={label} hint={hint} message={message} errorId={errorId}>
      {multiline ? (
        <textarea rows={3} {...props} onChange={(event) => onChange(event.target.value)} />
      ) : (
        <input type={type} {...props} onChange={(event) => onChange(event.target.value)} />
      )}
      {max ? (
        <p className={value.trim().length > max ? 'dc-count dc-count--over' : 'dc-count'} id={`${id}-count`}>
          {value.trim().length} of {max} characters
        </p>
      ) : null}
    </FieldFrame>
  );
}

/** A whole number; empty is `undefined` (the contract's default, or a refusal naming the field). */
export function NumberField({
  ctx,
  path,
  label,
  value,
  onChange,
  min,
  max,
  hint,
}: {
  ctx: FieldContext;
  path: string;
  label: string;
  value: number | undefined;
  onChange: (value: number | undefined) => void;
  min?: number;
  max?: number;
  hint?: string;
}) {
  const id = idOf(ctx, path);
  const message = ctx.fields.message(path);
  const errorId = ctx.fields.errorId(path);
  return (
    <FieldFrame id={id} label={label} hint={hint} message={message} errorId={errorId}>
      <input
        id={id}
        type="number"
        inputMode="numeric"
        min={min}
        max={max}
        value={value === undefined || Number.isNaN(value) ? '' : value}
        disabled={ctx.disabled}
        {...ariaOf(id, { hint, message, errorId })}
        onChange={(event) => onChange(event.target.value === '' ? undefined : Number(event.target.value))}
      />
    </FieldFrame>
  );
}

/** A day (offer end, closing date), sent as the last moment of that day. */
export function DateField({
  ctx,
  path,
  label,
  value,
  onChange,
  hint,
}: {
  ctx: FieldContext;
  path: string;
  label: string;
  value: number | undefined;
  onChange: (value: number | undefined) => void;
  hint?: string;
}) {
  const id = idOf(ctx, path);
  const message = ctx.fields.message(path);
  const errorId = ctx.fields.errorId(path);
  return (
    <FieldFrame id={id} label={label} hint={hint} message={message} errorId={errorId}>
      <input
        id={id}
        type="date"
        value={dayOf(value)}
        disabled={ctx.disabled}
        {...ariaOf(id, { hint, message, errorId })}
        onChange={(event) => onChange(endOfDay(event.target.value))}
      />
    </FieldFrame>
  );
}

/**
 * Ids separated by commas (cars, offers, locations). The text stays as typed while it is mounted (a
 * block keeps its fields when it moves, being keyed by its id), so "12, " does not jump back to "12"
 * while the dealer is still writing "12, 15"; a part that is no id is named at once.
 */
export function IdsField({
  ctx,
  path,
  label,
  value,
  onChange,
  hint,
}: {
  ctx: FieldContext;
  path: string;
  label: string;
  value: number[] | undefined;
  onChange: (value: number[] | undefined) => void;
  hint?: string;
}) {
  const id = idOf(ctx, path);
  const [text, setText] = useState(() => (value ?? []).join(', '));
  const read = idsOf(text);
  const message = read.wrong ? 'Write numbers separated by commas, such as 12, 15.' : ctx.fields.within(path);
  const errorId = ctx.fields.errorId(path);
  return (
    <FieldFrame id={id} label={label} hint={hint} message={message} errorId={errorId}>
      <input
        id={id}
        value={text}
        inputMode="numeric"
        disabled={ctx.disabled}
        {...ariaOf(id, { hint, message, errorId })}
        onChange={(event) => {
          setText(event.target.value);
          const ids = idsOf(event.target.value).ids;
          onChange(ids.length ? ids : undefined);
        }}
      />
    </FieldFrame>
  );
}

export type SiteLocation = { id: number; name: string };

/** One of the site's locations: a list of their names when the console knows them, else the location's number. */
export function LocationField({
  ctx,
  path,
  label,
  value,
  onChange,
  locations,
  none,
}: {
  ctx: FieldContext;
  path: string;
  label: string;
  value: number | undefined;
  onChange: (value: number | undefined) => void;
  locations: SiteLocation[] | null;
  /** What no location means here ("Any location", "No location"). */
  none: string;
}) {
  if (!locations)
    return (
      <NumberField
        ctx={ctx}
        path={path}
        label={label}
        value={value}
        onChange={onChange}
        min={1}
        hint={`The location’s number; empty: ${none.toLowerCase()}.`}
      />
    );
  return (
    <SelectField
      ctx={ctx}
      path={path}
      label={label}
      value={value === undefined ? '' : String(value)}
      options={[{ value: '', label: none }, ...locations.map((location) => ({ value: String(location.id), label: location.name }))]}
      onChange={(chosen) => onChange(chosen ? Number(chosen) : undefined)}
    />
  );
}

/** One of a few choices, each with the words the dealer sees. */
export function SelectField<V extends string>({
  ctx,
  path,
  label,
  value,
  options,
  onChange,
}: {
  ctx: FieldContext;
  path: string;
  label: string;
  value: V;
  options: readonly { value: V; label: string }[];
  onChange: (value: V) => void;
}) {
  const id = idOf(ctx, path);
  return (
    <div className="dp-field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={value}
        disabled={ctx.disabled}
        {...ctx.fields.invalid(path)}
        onChange={(event) => onChange(event.target.value as V)}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <FieldError path={path} fields={ctx.fields} />
    </div>
  );
}

/** Sends a picture to the site's pictures; answers its address. */
export type Upload = (file: File) => Promise<string>;
const pictureTypes = ['image/jpeg', 'image/png', 'image/webp'];

/**
 * A picture of the site's own: the one chosen now, a file to upload in its place (uploaded as soon as it
 * is chosen), or none. The file input carries the field's label.
 */
export function PictureField({
  ctx,
  path,
  label,
  src,
  onChange,
  upload,
  optional,
}: {
  ctx: FieldContext;
  path: string;
  label: string;
  src: string | undefined;
  onChange: (src: string | undefined) => void;
  upload: Upload;
  optional: boolean;
}) {
  const id = idOf(ctx, path);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState('');
  const message = refusal || ctx.fields.message(path);
  const errorId = ctx.fields.errorId(path);
  const send = async (file: File | undefined) => {
    if (!file) return;
    if (!pictureTypes.includes(file.type)) return setRefusal('Upload a JPEG, PNG or WebP picture.');
    setBusy(true);
    setRefusal('');
    try {
      onChange(await upload(file));
    } catch (caught) {
      setRefusal(caught instanceof ApiError ? (caught.fields.image ?? caught.message) : 'The picture could not be uploaded. Try again.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="dp-field dc-picture">
      <label htmlFor={id}>{label}</label>
      {src ? <img className="dc-picture__preview" src={src} alt="" /> : <p className="dc-hint">No picture{optional ? '' : ' yet'}.</p>}
      <p className="dc-hint" id={`${id}-hint`}>
        {src ? 'Choose another file to replace it. ' : ''}JPEG, PNG or WebP; it is uploaded as soon as you choose it.
      </p>
      <input
        id={id}
        type="file"
        accept={pictureTypes.join(',')}
        disabled={ctx.disabled || busy}
        {...ariaOf(id, { hint: true, message, errorId })}
        onChange={(event) => {
          void send(event.target.files?.[0]);
          event.target.value = '';
        }}
      />
      {busy ? <p role="status">Uploading the picture…</p> : null}
      <FieldMessage message={message} id={errorId} />
      {src && optional && !ctx.disabled ? (
        <Button variant="link" onClick={() => onChange(undefined)}>
          Remove the picture
        </Button>
      ) : null}
    </div>
  );
}

/** A picture with the words a screen reader says for it (`image.src` and `image.alt`). */
export function ImageField({
  ctx,
  path,
  label,
  value,
  onChange,
  upload,
  optional,
}: {
  ctx: FieldContext;
  path: string;
  label: string;
  value: ContentImage | undefined;
  onChange: (value: ContentImage | undefined) => void;
  upload: Upload;
  optional: boolean;
}) {
  const image = value ?? { src: '', alt: '' };
  return (
    <div className="dc-image">
      <FieldError path={path} fields={ctx.fields} />
      <PictureField
        ctx={ctx}
        path={`${path}.src`}
        label={label}
        src={image.src || undefined}
        upload={upload}
        optional={optional}
        onChange={(src) => onChange(src ? { ...image, src } : optional ? undefined : { ...image, src: '' })}
      />
      {image.src || !optional ? (
        <TextField
          ctx={ctx}
          path={`${path}.alt`}
          label="Alt text"
          hint="What the picture shows, for shoppers who cannot see it."
          value={image.alt}
          onChange={(alt) => onChange({ ...image, alt })}
        />
      ) : null}
    </div>
  );
}

/** Formatted text through the lazily loaded editor; until it arrives, a box in its place. */
export function RichTextField({
  ctx,
  path,
  label,
  html,
  onChange,
}: {
  ctx: FieldContext;
  path: string;
  label: string;
  html: string;
  onChange: (html: string) => void;
}) {
  const id = idOf(ctx, path);
  const message = ctx.fields.within(path);
  return (
    <div className="dp-field">
      <span className="dc-rich__label" id={`${id}-label`}>
        {label}
      </span>
      <Suspense
        fallback={
          <div className="dc-rich__box" aria-busy="true">
            Loading the editor…
          </div>
        }
      >
        <RichTextEditor
          html={html}
          onChange={onChange}
          labelledBy={`${id}-label`}
          describedBy={message ? ctx.fields.errorId(path) : undefined}
          readOnly={ctx.disabled}
        />
      </Suspense>
      <FieldMessage message={message} id={ctx.fields.errorId(path)} />
    </div>
  );
}

/** A yes-or-no switch. */
export function CheckField({
  ctx,
  path,
  label,
  checked,
  onChange,
}: {
  ctx: FieldContext;
  path: string;
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <div className="dp-field dc-check">
      <label>
        <input type="checkbox" checked={checked} disabled={ctx.disabled} onChange={(event) => onChange(event.target.checked)} /> {label}
      </label>
      <FieldError path={path} fields={ctx.fields} />
    </div>
  );
}
