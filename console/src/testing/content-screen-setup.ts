// What the content screen's tests share: the lazy chunks loaded first, a site that may write its
// content, and a stand-in for the console API that records each call.
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, vi } from 'vitest';
import type { ConsoleSite } from '../console-api';

export const site: ConsoleSite = { id: 1, slug: 'demo', name: 'Demo Motors', group: null, actions: ['content.read', 'content.write'] };
export const base = '/api/console/sites/demo';

export type Call = { method: string; url: string; body: unknown };
export type Answer = (call: Call) => { status?: number; body: unknown };

/**
 * Waiting for the screen's lazy chunks (the editor, the content screen) is waiting for an event, not a
 * speed limit: a loaded machine compiles Lexical slowly. Loaded once before the tests, then a tick away.
 */
export function loadContentScreenFirst() {
  configure({ asyncUtilTimeout: 20_000 });
  beforeAll(async () => {
    await Promise.all([import('../rich-text-editor'), import('../content-screen')]);
  }, 60_000);
}

/**
 * The console API for each test of the file: every call is kept in `api.calls`, and answered by
 * `api.answer`, which a test may replace (each test starts from `first`).
 */
export function fakeConsoleApi(first: Answer) {
  const api = { calls: [] as Call[], answer: first };
  beforeEach(() => {
    api.calls = [];
    api.answer = first;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        const call = { method: init?.method ?? 'GET', url, body: typeof init?.body === 'string' ? JSON.parse(init.body) : init?.body };
        api.calls.push(call);
        const { status = 200, body } = api.answer(call);
        return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
      }),
    );
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });
  return api;
}

type Stored = { id: number; kind: string; slug: string; published: unknown; published_at: number | null; updated_at: number };

/** An item as its kind's list shows it (`GET …/content?kind=`). */
export const listing = (item: Stored, title = '') => ({
  id: item.id,
  kind: item.kind,
  slug: item.slug,
  title,
  state: item.published ? 'published' : 'draft',
  published_at: item.published_at,
  expires_at: null,
  updated_at: item.updated_at,
});
