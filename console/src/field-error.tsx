import type { FieldHelpers } from './settings-fields';

/** The server's message for a field, under the field (tied to it by aria-describedby). */
export function FieldError({ path, fields }: { path: string; fields: FieldHelpers }) {
  const message = fields.message(path);
  return message ? (
    <p className="dp-field__error" id={fields.errorId(path)}>
      {message}
    </p>
  ) : null;
}
