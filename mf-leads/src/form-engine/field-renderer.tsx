import { Field } from 'react-final-form';
import type { Location } from '@dealer/contracts/location';
import { optionLabel, type SelectOption } from '@dealer/rules/lead-validation';
import { useAppSelector } from '@dealer/state/hooks';
import { selectSite } from '@dealer/state/site-slice';
import type { FieldDef } from './field-types';
import { FieldError, fieldId, useInvalid } from './field-error';
import { BookingTimeField } from './booking-time-field';

const inputKinds: Partial<
  Record<FieldDef['type'], { type: string; inputMode?: 'numeric' | 'decimal' | 'tel' | 'email' | 'text'; autoComplete?: string }>
> = {
  string: { type: 'text' },
  email: { type: 'email', inputMode: 'email', autoComplete: 'email' },
  phone: { type: 'tel', inputMode: 'tel', autoComplete: 'tel' },
  postcode: { type: 'text', inputMode: 'numeric', autoComplete: 'postal-code' },
  number: { type: 'text', inputMode: 'numeric' },
  currency: { type: 'text', inputMode: 'decimal' },
  kilometre: { type: 'text', inputMode: 'numeric' },
  distance: { type: 'text', inputMode: 'numeric' },
  year: { type: 'text', inputMode: 'numeric' },
  rego: { type: 'text', autoComplete: 'off' },
  licenseNumber: { type: 'text', autoComplete: 'off' },
  cardNumber: { type: 'text', inputMode: 'numeric', autoComplete: 'cc-number' },
};

const selectTypes = new Set<FieldDef['type']>([
  'select',
  'make',
  'model',
  'locationSelect',
  'locationSelectCustom',
  'websiteLocationSelect',
  'cricksSpecialLocation',
  'serviceInterval',
  'tyres',
]);
const radioTypes = new Set<FieldDef['type']>(['radio', 'radioGroup', 'radioCardGroup']);
const checkTypes = new Set<FieldDef['type']>(['check', 'optIn', 'checkCard', 'cricksInstalled']);

function Wrapper({ field, children, group = false }: { field: FieldDef; children: React.ReactNode; group?: boolean }) {
  const invalid = useInvalid(field.name);
  const className = `dp-field${invalid ? ' dp-field--invalid' : ''}`;
  if (group) {
    return (
      <fieldset className={className} aria-invalid={invalid || undefined}>
        <legend>{field.label}</legend>
        {children}
        {field.help && <span className="dp-field__help">{field.help}</span>}
        <FieldError name={field.name} />
      </fieldset>
    );
  }
  return (
    <div className={className}>
      <label htmlFor={fieldId(field.name)}>{field.label}</label>
      {children}
      {field.help && <span className="dp-field__help">{field.help}</span>}
      <FieldError name={field.name} />
    </div>
  );
}

function Options({ options }: { options: readonly SelectOption[] }) {
  // SPEC §5: the brand whose service centres are named '… - Service' shows them without it.
  const stripService = useAppSelector(selectSite).lead_settings?.strip_service_suffix === true;
  return (
    <>
      {options.map((option) => (
        <option key={option.value} value={String(option.value)}>
          {optionLabel(option, { stripService })}
        </option>
      ))}
    </>
  );
}

/** Renders one declared field by its SPEC §3 type. */
export function FieldRenderer({
  field,
  onSkip,
  bookingLocation,
  carId,
}: {
  field: FieldDef;
  onSkip?: (step: number) => void;
  bookingLocation?: Location;
  carId?: number;
}) {
  const stripService = useAppSelector(selectSite).lead_settings?.strip_service_suffix === true;
  const id = fieldId(field.name);
  const described = `${id}-error`;
  const { type } = field;

  if (type === 'custom') return <>{field.render?.({ name: field.name, label: field.label })}</>;
  if (type === 'hidden') return <Field name={field.name} component="input" type="hidden" />;
  if (type === 'button') {
    return (
      <button type="button" className="dp-button dp-button--link" onClick={() => field.skipTo !== undefined && onSkip?.(field.skipTo)}>
        {field.label}
      </button>
    );
  }
  // SPEC §5: a select with no options renders nothing.
  if (selectTypes.has(type) && !field.options?.length) return null;

  const kind = inputKinds[type];
  if (kind) {
    return (
      <Wrapper field={field}>
        <Field name={field.name}>
          {({ input }) => (
            <input
              id={id}
              {...input}
              value={(input.value as string) ?? ''}
              type={kind.type}
              inputMode={kind.inputMode}
              autoComplete={kind.autoComplete}
              placeholder={field.placeholder}
              aria-describedby={described}
            />
          )}
        </Field>
      </Wrapper>
    );
  }
  if (type === 'textarea') {
    return (
      <Wrapper field={field}>
        <Field name={field.name}>
          {({ input }) => <textarea id={id} {...input} value={(input.value as string) ?? ''} aria-describedby={described} />}
        </Field>
      </Wrapper>
    );
  }
  if (selectTypes.has(type)) {
    return (
      <Wrapper field={field}>
        <Field name={field.name}>
          {({ input }) => (
            <select id={id} {...input} aria-describedby={described}>
              <option value="">{field.placeholder ?? 'Please select'}</option>
              <Options options={field.options!} />
            </select>
          )}
        </Field>
      </Wrapper>
    );
  }
  if (radioTypes.has(type)) {
    return (
      <Wrapper field={field} group>
        <div className={type === 'radioCardGroup' ? 'dp-choice-cards' : 'dp-choices'}>
          {(field.options ?? []).map((option) => (
            <label key={option.value} className="dp-check">
              <Field name={field.name} component="input" type="radio" value={String(option.value)} />{' '}
              {optionLabel(option, { stripService })}
            </label>
          ))}
        </div>
      </Wrapper>
    );
  }
  if (type === 'checkGroup') {
    return (
      <Wrapper field={field} group>
        <div className="dp-choices">
          {(field.options ?? []).map((option) => (
            <label key={option.value} className="dp-check">
              <Field name={field.name} component="input" type="checkbox" value={String(option.value)} />{' '}
              {optionLabel(option, { stripService })}
            </label>
          ))}
        </div>
      </Wrapper>
    );
  }
  if (checkTypes.has(type)) {
    return (
      <div className="dp-field dp-field--check">
        <label className="dp-check">
          <Field name={field.name} component="input" type="checkbox" /> {field.label}
        </label>
        <FieldError name={field.name} />
      </div>
    );
  }
  if (type === 'fullName') {
    return (
      <fieldset className="dp-field">
        <legend>{field.label}</legend>
        <NameParts name={field.name} />
      </fieldset>
    );
  }
  if (type === 'dob' || type === 'expiryDate' || type === 'CCExpiration') {
    const parts = type === 'dob' ? (['day', 'month', 'year'] as const) : (['month', 'year'] as const);
    return (
      <Wrapper field={field} group>
        <div className="dp-inline-fields">
          {parts.map((part) => (
            <label key={part}>
              <span>{part[0]!.toUpperCase() + part.slice(1)}</span>
              <Field name={type === 'dob' ? part : `${field.name}_${part}`} component="input" inputMode="numeric" />
            </label>
          ))}
        </div>
      </Wrapper>
    );
  }
  if (type === 'dateTime' && field.bookingKind)
    return <BookingTimeField field={field} kind={field.bookingKind} location={bookingLocation} carId={carId} />;
  if (type === 'dateTime' || type === 'dateTimeGeneric') {
    return (
      <Wrapper field={field}>
        <Field name={field.name}>
          {({ input }) => (
            <input id={id} {...input} value={(input.value as string) ?? ''} type="datetime-local" aria-describedby={described} />
          )}
        </Field>
      </Wrapper>
    );
  }
  if (type === 'address') {
    return (
      <Wrapper field={field} group>
        <div className="dp-inline-fields">
          {(['street', 'suburb', 'state', 'postcode'] as const).map((part) => (
            <label key={part}>
              <span>{part[0]!.toUpperCase() + part.slice(1)}</span>
              <Field name={`${field.name}.${part}`} component="input" />
            </label>
          ))}
        </div>
      </Wrapper>
    );
  }
  if (type === 'starRating') {
    return (
      <Wrapper field={field} group>
        <div className="dp-stars">
          {[1, 2, 3, 4, 5].map((stars) => (
            <label key={stars} className="dp-check">
              <Field name={field.name} component="input" type="radio" value={String(stars)} /> {'★'.repeat(stars)}
              <span className="dp-visually-hidden">{`${stars} stars`}</span>
            </label>
          ))}
        </div>
      </Wrapper>
    );
  }
  if (type === 'file') {
    return (
      <Wrapper field={field}>
        <Field<FileList | null> name={field.name}>
          {({ input: { onChange, onBlur, onFocus, name } }) => (
            <input
              id={id}
              name={name}
              type="file"
              accept={field.accept ?? 'image/jpeg,image/png,image/webp,image/heic,application/pdf'}
              multiple={field.multiple ?? true}
              onBlur={onBlur}
              onFocus={onFocus}
              onChange={(event) => onChange(event.target.files)}
              aria-describedby={described}
            />
          )}
        </Field>
      </Wrapper>
    );
  }
  return null;
}

/**
 * SPEC §3 full name: first name under the field's own name, optional middle_name and last_name.
 * Each error sits after its label (not inside it), so a screen reader announces the field by its name
 * and the error through aria-describedby.
 */
function NameParts({ name }: { name: string }) {
  const parts = [
    { part: name, label: 'First name', autoComplete: 'given-name' },
    { part: 'middle_name', label: 'Middle name (optional)', autoComplete: 'additional-name' },
    { part: 'last_name', label: 'Last name', autoComplete: 'family-name' },
  ];
  return (
    <div className="dp-inline-fields">
      {parts.map(({ part, label, autoComplete }) => (
        <div key={part}>
          <label>
            <span>{label}</span>
            <Field name={part} component="input" autoComplete={autoComplete} aria-describedby={`${fieldId(part)}-error`} />
          </label>
          <FieldError name={part} />
        </div>
      ))}
    </div>
  );
}
