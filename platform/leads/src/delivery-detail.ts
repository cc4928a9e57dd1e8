/**
 * The one line a send leaves in an outbox's log and `last_error` (lead deliveries, shopper mail, ad
 * events): whatever an error or an answer said, flattened and cut short, and how a mail server's
 * refusal counts.
 */

/** `text` on one line, at most `max` characters. */
export const oneLine = (text: string, max = 200) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/** An error in a few words: its cause's code and message when it has one (what fetch and the file system put there). */
export const errorText = (error: unknown): string => {
  if (!(error instanceof Error)) return oneLine(String(error));
  const cause = error.cause instanceof Error ? error.cause : null;
  const code = (cause as { code?: unknown } | null)?.code ?? (error as { code?: unknown }).code;
  return oneLine([typeof code === 'string' ? code : '', cause?.message ?? error.message].filter(Boolean).join(' '));
};

/** The SMTP reply code nodemailer attached to an error, if any. */
export function smtpReplyCode(error: unknown): number | null {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' ? code : null;
}

/**
 * A mail server's failure: a 5xx reply is a refusal no retry changes (unknown mailbox, relay
 * denied, bad credentials); a 4xx, or no reply at all, may pass.
 */
export function smtpFailure(error: unknown): { permanent: boolean; detail: string } {
  const code = smtpReplyCode(error);
  return {
    permanent: code !== null && code >= 500 && code < 600,
    detail: oneLine(`${code !== null ? `${code} ` : ''}${errorText(error)}`),
  };
}
