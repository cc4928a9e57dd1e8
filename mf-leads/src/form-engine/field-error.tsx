import { useField } from 'react-final-form';

export const fieldId = (name: string) => `field-${name.replace(/[^\w-]/g, '-')}`;

/** The error under a field: shown after a submit attempt (forms validate on submit only, SPEC §5). */
export function FieldError({ name }: { name: string }) {
  const { meta } = useField(name, { subscription: { error: true, submitError: true, submitFailed: true, dirtySinceLastSubmit: true } });
  const error = meta.submitFailed ? (meta.error ?? (!meta.dirtySinceLastSubmit ? meta.submitError : undefined)) : undefined;
  if (!error) return null;
  return (
    <span id={`${fieldId(name)}-error`} className="dp-field__error" role="alert">
      {String(error)}
    </span>
  );
}

export function useInvalid(name: string) {
  const { meta } = useField(name, { subscription: { error: true, submitError: true, submitFailed: true, dirtySinceLastSubmit: true } });
  return Boolean(meta.submitFailed && (meta.error || (!meta.dirtySinceLastSubmit && meta.submitError)));
}
