import { readFile, rm, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@dealer/testing/free-port';
import { adEventFilePath, deliverAdEvent, type ConversionsApiEvent } from './conversions-api';
import { startFakeGraph, type FakeGraph } from '@dealer/testing/fake-graph-server';

const token = 'EAAB-test-token-secret';
const event = (id: string): ConversionsApiEvent => ({
  event_name: 'Lead',
  event_time: 1_790_000_000,
  event_id: id,
  action_source: 'website',
  event_source_url: 'https://dealer.example/contact',
  user_data: { em: ['a'.repeat(64)], client_ip_address: '203.0.113.1', client_user_agent: 'UA' },
});

describe('sending one event to the Conversions API', () => {
  let graph: FakeGraph;
  let dataDir: string;
  beforeAll(async () => {
    graph = await startFakeGraph();
    dataDir = await mkdtemp(join(tmpdir(), 'ad-events-'));
  });
  afterAll(async () => {
    await graph.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  const target = (graphUrl = graph.url) => ({
    kind: 'graph' as const,
    graphUrl,
    pixelId: '1234567890',
    accessToken: token,
    timeoutMs: 2_000,
  });

  it('posts {data:[event]} as JSON to /v21.0/<pixel>/events with the token, and calls a 200 sent', async () => {
    const result = await deliverAdEvent(1, event('e-ok'), target());
    expect(result.outcome).toBe('sent');
    const [request] = graph.requestsFor('e-ok');
    expect(request).toMatchObject({ method: 'POST', path: '/v21.0/1234567890/events', contentType: 'application/json' });
    expect(request!.query.get('access_token')).toBe(token);
    expect(request!.body).toEqual({ data: [event('e-ok')] });
  });

  it('retries a 5xx, a 429 and an error Graph calls transient; gives up on any other 4xx; never shows the token', async () => {
    graph.answers.push(
      { status: 500, body: { error: { message: 'An unexpected error has occurred.', code: 2, is_transient: true } } },
      { status: 429, body: {} },
      { status: 400, body: { error: { message: 'Please retry', code: 1, is_transient: true } } },
      {
        status: 400,
        body: { error: { message: `Invalid OAuth access token ${token}`, type: 'OAuthException', code: 190, fbtrace_id: 'tr1' } },
      },
    );
    expect((await deliverAdEvent(2, event('e-500'), target())).outcome).toBe('retry');
    expect((await deliverAdEvent(3, event('e-429'), target())).outcome).toBe('retry');
    expect((await deliverAdEvent(4, event('e-transient'), target())).outcome).toBe('retry');
    const refused = await deliverAdEvent(5, event('e-400'), target());
    expect(refused.outcome).toBe('rejected');
    expect(refused.detail).toContain('Invalid OAuth access token');
    expect(refused.detail).toContain('code 190');
    expect(refused.detail).not.toContain(token);
  });

  it('retries when nobody answers', async () => {
    const result = await deliverAdEvent(6, event('e-down'), target(`http://127.0.0.1:${await freePort()}`));
    expect(result.outcome).toBe('retry');
    expect(result.detail).not.toContain(token);
  });

  it('writes the body it would have sent to DATA_DIR/outbox/ad-events/<site>/<id>.json without a token', async () => {
    const result = await deliverAdEvent(7, event('e-file'), { kind: 'file', dataDir, siteSlug: 'some-site' });
    const file = adEventFilePath(dataDir, 'some-site', 7);
    expect(result).toEqual({ outcome: 'sent', detail: file });
    expect(file).toBe(join(dataDir, 'outbox', 'ad-events', 'some-site', '7.json'));
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ data: [event('e-file')] });
  });
});
