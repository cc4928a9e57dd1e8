/**
 * A version of a page, post, offer or job as the console sent it, checked against its kind's schema
 * and with every piece of formatted text sanitised: what the store keeps (issue 24).
 */
import { z } from 'zod';
import { contentSchemas, type ContentKind, type ContentOf } from '@dealer/contracts/content';
import { sanitizeBlocks, sanitizeRichText } from './sanitize-html';

export type CleanResult<K extends ContentKind> = { ok: true; version: ContentOf<K> } | { ok: false; error: z.ZodError };

export function cleanContent<K extends ContentKind>(kind: K, input: unknown): CleanResult<K> {
  const parsed = contentSchemas[kind].safeParse(input);
  if (!parsed.success) return { ok: false, error: parsed.error };
  const version = parsed.data as Record<string, unknown>;
  const clean: Record<string, unknown> = { ...version };
  if (Array.isArray(version.blocks)) clean.blocks = sanitizeBlocks(version.blocks as Parameters<typeof sanitizeBlocks>[0]);
  if (typeof version.terms_html === 'string') clean.terms_html = sanitizeRichText(version.terms_html);
  if (typeof version.body_html === 'string') clean.body_html = sanitizeRichText(version.body_html);
  // A landing's intro and a template's: the template's placeholders are plain text and survive cleaning.
  if (typeof version.intro_html === 'string') clean.intro_html = sanitizeRichText(version.intro_html);
  return { ok: true, version: clean as ContentOf<K> };
}
