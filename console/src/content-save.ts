// What the content editor and the search page template editor do alike with their buttons: one action
// at a time, a draft saved (created by the first save), published, and a refusal kept with its messages.
import { useState } from 'react';
import type { ContentKind } from '@dealer/contracts/content';
import { ApiError, consoleCall } from './console-api';
import { noErrors, placeErrors, type ContentRecord, type PlacedErrors } from './content-model';

/** The server's refusal, each message placed by its field (a block's by the block ids sent). */
export type Refusal = { message: string; placed: PlacedErrors };

/** A refusal from what was caught: the server's words, or `fallback` when the server did not answer with any. */
export const refusalOf = (caught: unknown, fallback: string, sentBlockIds: string[] = []): Refusal =>
  caught instanceof ApiError
    ? { message: caught.message, placed: placeErrors(caught.fields, sentBlockIds) }
    : { message: fallback, placed: noErrors };

/** Saves the draft at `base` (`…/content`): the item's first save creates it. */
export const sendDraft = (base: string, record: ContentRecord | null, kind: ContentKind, slug: string, content: unknown) =>
  record
    ? consoleCall<ContentRecord>('PUT', `${base}/${record.id}`, { slug, content })
    : consoleCall<ContentRecord>('POST', base, { kind, slug, content });

/** Puts the saved draft on the site. */
export const sendPublish = (base: string, saved: ContentRecord) => consoleCall<ContentRecord>('POST', `${base}/${saved.id}/publish`);

/**
 * One action at a time: `busy` names the running one (its button shows it, the others wait), and what was
 * said after the last one is cleared when the next starts.
 */
export function useActions<B extends string>() {
  const [busy, setBusy] = useState<B | null>(null);
  const [said, setSaid] = useState('');
  const act = async (what: B, run: () => Promise<void>) => {
    setBusy(what);
    setSaid('');
    try {
      await run();
    } finally {
      setBusy(null);
    }
  };
  return { busy, said, setSaid, act };
}
