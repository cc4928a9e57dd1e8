import { z } from 'zod';
import { chatLimits } from '@dealer/contracts/chat';
import { formMessages } from '@dealer/contracts/lead-values';

/** The shopper's and the dealer's messages under the same rules (issue 11, `chatLimits`). */
export const chatTextMessages = {
  required: formMessages.required,
  notText: 'A message must be text.',
  tooLong: `Please keep a message to ${chatLimits.messageMax} characters or fewer.`,
  authorNameTooLong: `author_name is at most ${chatLimits.authorNameMax} characters.`,
  oneLine: 'must be one line of text.',
  clientMessageId: 'client_message_id must be 1 to 64 letters, digits, - or _ (a new one for each message).',
} as const;

/**
 * A message made storable: line breaks as `\n`, no other control characters (PostgreSQL text
 * cannot hold a NUL, and a pasted one is never meant), no blank lines or spaces around it.
 */
export const cleanMessageText = (text: string) =>
  text
    .replace(/\r\n?/g, '\n')
    .replace(/[^\P{Cc}\n\t]/gu, '')
    .trim();

/** Characters as a person counts them: an emoji is one, not two UTF-16 units. */
const characterCount = (text: string) => {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
};

/** A message's text: cleaned, then required and at most `chatLimits.messageMax` characters. */
export const messageTextSchema = z
  .string({ error: (issue) => (issue.input === undefined ? chatTextMessages.required : chatTextMessages.notText) })
  .transform(cleanMessageText)
  .refine((text) => text !== '', chatTextMessages.required)
  .refine((text) => characterCount(text) <= chatLimits.messageMax, chatTextMessages.tooLong);

/** The browser's own id of a message, which makes a retry safe. */
export const clientMessageIdSchema = z
  .string({ error: chatTextMessages.clientMessageId })
  .regex(/^[A-Za-z0-9_-]{1,64}$/, chatTextMessages.clientMessageId);

/** One line of text (a name, a phone number, an address): trimmed, no control characters. */
export const lineTextSchema = (field: string, max: number) =>
  z
    .string({ error: `${field} must be text.` })
    .trim()
    .max(max, `${field} is at most ${max} characters.`)
    .refine((text) => !/\p{Cc}/u.test(text), `${field} ${chatTextMessages.oneLine}`);

/** Field → message for a 400: the first problem of each field, and each field the body should not have. */
export function chatFieldErrors(error: z.ZodError, unknownField: (key: string) => string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) fields[key] ??= unknownField(key);
      continue;
    }
    fields[issue.path.map(String).join('.') || 'body'] ??= issue.path.length === 0 ? 'Send a JSON object.' : issue.message;
  }
  return fields;
}
