/**
 * Sends one server-side ad event to the Meta Conversions API (`POST <graph>/v21.0/<pixel>/events`
 * with the site's `facebook_capi_token`), or, for a site without a token, writes the request body
 * it would have sent to DATA_DIR/outbox/ad-events/<site>/<id>.json (the local default, like ADF
 * files), so the platform runs offline. Never throws and never retries: the ad event outbox decides.
 *
 * Outcomes: `sent`; `rejected` when a retry cannot help (a 4xx from Graph: a bad token, an unknown
 * pixel, an event Meta refuses); `retry` for the rest (a 5xx, 408, 429, an error Graph marks
 * `is_transient`, no answer, a full disk). The access token never appears in a detail or a log.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { SendResult } from '@dealer/db/outbox-attempt';
import { writeFileAtomic } from '@dealer/leads/atomic-file';
import { outboxDir } from '@dealer/leads/delivery-config';
import { oneLine } from '@dealer/leads/delivery-detail';
import { bodyStart } from '@dealer/leads/response-body';
import type { AdUserData } from './ad-user-data';

/** The Graph API version the events are posted to. */
export const graphApiVersion = 'v21.0';

/** SPEC §3 ad-tracking content payload, as the browser sent it (Conversions API `custom_data`). */
export type AdCustomData = {
  content_ids?: string[];
  quantity?: number;
  currency?: string;
  value?: number;
  content_type?: string;
  content_name?: string;
  search_string?: string;
};

/** One Conversions API event, as stored (hashed) and sent. */
export type ConversionsApiEvent = {
  event_name: string;
  /** Unix seconds. */
  event_time: number;
  /** The browser pixel event's eventID: Meta counts the two once. */
  event_id: string;
  action_source: 'website';
  event_source_url?: string;
  user_data: AdUserData;
  custom_data?: AdCustomData;
};

/** The request body: the API takes events in a `data` list. */
export const conversionsApiBody = (event: ConversionsApiEvent) => ({ data: [event] });

export type AdEventTarget =
  | { kind: 'graph'; graphUrl: string; pixelId: string; accessToken: string; timeoutMs?: number }
  | { kind: 'file'; dataDir: string; siteSlug: string };

/** A send's result (a transport never finds an event too old: the outbox does). */
export type AdDeliveryResult = SendResult & { outcome: 'sent' | 'rejected' | 'retry' };

export const adEventsOutboxDir = (dataDir: string) => path.join(outboxDir(dataDir), 'ad-events');

export const adEventFilePath = (dataDir: string, siteSlug: string, eventRowId: number) =>
  path.join(adEventsOutboxDir(dataDir), siteSlug, `${eventRowId}.json`);

/** The endpoint without its token (what a log may show). */
const graphEventsEndpoint = (graphUrl: string, pixelId: string) => `${graphUrl}/${graphApiVersion}/${encodeURIComponent(pixelId)}/events`;

/** Graph's error messages run long: a detail keeps more of them than a lead delivery's. */
const detailMax = 500;

export async function deliverAdEvent(eventRowId: number, event: ConversionsApiEvent, target: AdEventTarget): Promise<AdDeliveryResult> {
  return target.kind === 'graph' ? postToGraph(event, target) : writeEventFile(eventRowId, event, target);
}

async function writeEventFile(
  eventRowId: number,
  event: ConversionsApiEvent,
  target: Extract<AdEventTarget, { kind: 'file' }>,
): Promise<AdDeliveryResult> {
  const file = adEventFilePath(target.dataDir, target.siteSlug, eventRowId);
  try {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFileAtomic(file, `${JSON.stringify(conversionsApiBody(event), null, 2)}\n`);
    return { outcome: 'sent', detail: file };
  } catch (error) {
    return {
      outcome: 'retry',
      detail: oneLine(`cannot write ${file}: ${error instanceof Error ? error.message : String(error)}`, detailMax),
    };
  }
}

type GraphError = { message?: unknown; code?: unknown; error_subcode?: unknown; is_transient?: unknown; fbtrace_id?: unknown };
type GraphAnswer = { events_received?: unknown; fbtrace_id?: unknown; error?: GraphError };

function graphAnswer(text: string): GraphAnswer | null {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' ? (value as GraphAnswer) : null;
  } catch {
    return null;
  }
}

async function postToGraph(event: ConversionsApiEvent, target: Extract<AdEventTarget, { kind: 'graph' }>): Promise<AdDeliveryResult> {
  const timeoutMs = target.timeoutMs ?? 10_000;
  const endpoint = graphEventsEndpoint(target.graphUrl, target.pixelId);
  const hideToken = (text: string) => (target.accessToken ? text.split(target.accessToken).join('[token]') : text);
  let response: Response;
  try {
    response = await fetch(`${endpoint}?access_token=${encodeURIComponent(target.accessToken)}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'User-Agent': 'DealerPlatform-AdEvents/1.0' },
      body: JSON.stringify(conversionsApiBody(event)),
      // The token is in the query: a redirect is not followed anywhere.
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
      return { outcome: 'retry', detail: `timeout after ${timeoutMs} ms` };
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return {
      outcome: 'retry',
      detail: oneLine(hideToken(`network error: ${error instanceof Error ? error.message : String(error)}${cause}`), detailMax),
    };
  }
  // Graph's answers are a few hundred bytes: 64 KB is plenty.
  const text = await bodyStart(response, 64 * 1024);
  const code = response.status;
  const body = graphAnswer(text);
  if (code >= 200 && code < 300) {
    return {
      outcome: 'sent',
      detail: oneLine(
        `${code} events_received=${String(body?.events_received ?? '?')} fbtrace_id=${String(body?.fbtrace_id ?? '?')}`,
        detailMax,
      ),
    };
  }
  const error = body?.error;
  const detail = oneLine(
    hideToken(
      error
        ? `${code} ${String(error.message ?? '')} (code ${String(error.code ?? '?')}${error.error_subcode ? `/${String(error.error_subcode)}` : ''}, fbtrace_id ${String(error.fbtrace_id ?? '?')})`
        : `${code} ${text}`,
    ),
    detailMax,
  );
  if (code === 408 || code === 429 || code >= 500 || error?.is_transient === true) return { outcome: 'retry', detail };
  if (code >= 300 && code < 400) return { outcome: 'rejected', detail: oneLine(`${code} redirect; check FACEBOOK_GRAPH_URL`, detailMax) };
  return { outcome: 'rejected', detail };
}
