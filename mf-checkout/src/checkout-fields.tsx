import type { ReactNode } from 'react';
import { Field } from 'react-final-form';

const fieldId = (name: string) => `checkout-${name.replace(/[^\w-]/g, '-')}`;

/** The field's error after a submit (SPEC §5: forms validate on submit): its own rule's, else the server's. */
function shownError(meta: {
  submitFailed?: boolean;
  error?: unknown;
  submitError?: unknown;
  dirtySinceLastSubmit?: boolean;
}): string | undefined {
  if (!meta.submitFailed) return undefined;
  const error = meta.error ?? (!meta.dirtySinceLastSubmit ? meta.submitError : undefined);
  return error ? String(error) : undefined;
}

type TextFieldProps = {
  name: string;
  label: string;
  type?: 'text' | 'email' | 'tel';
  autoComplete?: string;
  inputMode?: 'text' | 'email' | 'tel' | 'numeric';
  placeholder?: string;
  maxLength?: number;
};

/** A labelled input with its error beneath it, tied together for screen readers. */
export function TextField({ name, label, type = 'text', autoComplete, inputMode, placeholder, maxLength }: TextFieldProps) {
  const id = fieldId(name);
  return (
    <Field<string>
      name={name}
      subscription={{ value: true, error: true, submitError: true, submitFailed: true, dirtySinceLastSubmit: true }}
    >
      {({ input, meta }) => {
        const error = shownError(meta);
        return (
          <div className={`dp-field${error ? ' dp-field--invalid' : ''}`}>
            <label htmlFor={id}>{label}</label>
            <input
              {...input}
              id={id}
              type={type}
              autoComplete={autoComplete}
              inputMode={inputMode}
              placeholder={placeholder}
              maxLength={maxLength}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
            />
            {error && (
              <span id={`${id}-error`} className="dp-field__error" role="alert">
                {error}
              </span>
            )}
          </div>
        );
      }}
    </Field>
  );
}

/** A tick box (the reservation terms) with its error beneath it. */
export function TickField({ name, children }: { name: string; children: ReactNode }) {
  const id = fieldId(name);
  return (
    <Field<boolean>
      name={name}
      type="checkbox"
      subscription={{ value: true, error: true, submitError: true, submitFailed: true, dirtySinceLastSubmit: true }}
    >
      {({ input, meta }) => {
        const error = shownError(meta);
        return (
          <div className={`dp-field dp-field--tick${error ? ' dp-field--invalid' : ''}`}>
            <label htmlFor={id}>
              <input
                type="checkbox"
                name={input.name}
                checked={Boolean(input.checked)}
                onChange={input.onChange}
                onBlur={input.onBlur}
                onFocus={input.onFocus}
                id={id}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${id}-error` : undefined}
              />{' '}
              {children}
            </label>
            {error && (
              <span id={`${id}-error`} className="dp-field__error" role="alert">
                {error}
              </span>
            )}
          </div>
        );
      }}
    </Field>
  );
}
