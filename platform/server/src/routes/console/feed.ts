import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listSiteCars } from '@dealer/db/car-store';
import { insertAudit } from '@dealer/db/console-lead-store';
import * as store from '@dealer/db/feed-store';
import type { FeedSchedule } from '@dealer/db/schema';
import { carPhotoUrl } from '../../images/car-photos';
import type { PlatformContext } from '../../platform-context';
import { feedMaxBytes, FeedFileRefused, readFeedCsv, type FeedCsv } from '../../stock/feed-csv';
import { fetchFeedCsv, FetchFailed } from '../../stock/feed-fetch';
import { feedFieldNames, feedFields, guessMapping, mappingForColumns } from '../../stock/feed-fields';
import { ImportRunning, importRunningMessage, mappingNeedsKey } from '../../stock/feed-import';
import { feedPhotoUrls, planFeed, rowsForReport, rowView } from '../../stock/feed-plan';
import { checkFields, orEmpty, refusals } from '../admin/admin-schemas';
import { fieldErrors } from '../auth';
import type { ConsoleRequests } from './console-access';

/** The content types a feed's CSV may be uploaded as (the console's plugin registers their parser). */
export const feedUploadTypes = ['text/csv', 'application/csv'];

const siteParams = z.object({ site: z.string() });
const importParams = siteParams.extend({ id: z.coerce.number({ error: 'The import id is a number.' }).int().positive() });
const known = new Set<string>(feedFieldNames);

/** field → column: known fields only, each a column's name; a field left blank is not mapped. */
const mappingSchema = z
  .record(z.string(), z.unknown(), { error: 'Choose the column of each field.' })
  .superRefine((mapping, ctx) => {
    for (const [field, column] of Object.entries(mapping)) {
      if (!known.has(field)) ctx.addIssue({ code: 'custom', path: [], message: `‘${field}’ is not a field a column can be mapped to.` });
      else if ((typeof column !== 'string' && column !== null) || (column?.length ?? 0) > 200)
        ctx.addIssue({ code: 'custom', path: [], message: `Choose the column for ${field}.` });
    }
  })
  .transform((mapping) =>
    Object.fromEntries(Object.entries(mapping).filter(([, column]) => typeof column === 'string' && column.trim())),
  ) as unknown as z.ZodType<Record<string, string>>;

const feedAddress = z
  .string()
  .trim()
  .max(2000, 'At most 2,000 characters.')
  .refine(
    (url) => url === '' || (URL.canParse(url) && /^https?:$/.test(new URL(url).protocol)),
    'Enter the feed’s address, starting with https:// or http://.',
  )
  .transform((url) => url || null);

const settingsBody = z.strictObject({
  mapping: mappingSchema.nullable().optional(),
  url: feedAddress.nullable().optional(),
  schedule: z.enum(['off', 'hourly', 'daily'], { error: 'Off, hourly or daily.' }).optional(),
});

const dryRunBody = z.strictObject({ mapping: mappingSchema });

const feedUrlBody = z.strictObject({ url: feedAddress.pipe(z.string({ error: 'Enter the feed’s address.' })) });

/** An import's counts for the list: its report's, once it has one. */
const countsOf = (report: unknown) =>
  report && typeof report === 'object' && 'counts' in report ? (report as { counts: unknown }).counts : null;

/**
 * A site's inventory feed in the dealer console (`stock.read` to look, `stock.write` to change; issue 24):
 * - `GET …/feed`: the saved mapping, address and schedule, the mappable fields, the newest imports;
 * - `PUT …/feed/settings`: the mapping, address or schedule;
 * - `POST …/feed/imports`: a CSV (the body, text/csv, at most 20 MB) or `{ url }` fetched now; its columns, first rows and a mapping;
 * - `POST …/feed/imports/:id/dry-run`: `{ mapping }` checked against the site's cars: what each row would do (the mapping is saved);
 * - `POST …/feed/imports/:id/apply`: applies it in the background (202); `GET …/feed/imports/:id`: its progress and report.
 */
export function consoleFeedRoutes(scope: FastifyInstance, ctx: PlatformContext, { userOf, siteOf }: ConsoleRequests) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const schemaError = (error: z.ZodError) => ({ status: 400, body: { message: checkFields, fields: fieldErrors(error) } });
  const answer = { 200: z.looseObject({}), ...refusals };
  const refuse = (reply: FastifyReply, fields: Record<string, string>) => reply.code(400).send({ message: checkFields, fields });

  const settingsAnswer = async (siteId: number) => {
    const settings = await store.feedSettingsOf(ctx.db, siteId);
    const imports = await store.listFeedImports(ctx.db, siteId);
    return {
      mapping: settings?.mapping ?? null,
      url: settings?.url ?? null,
      schedule: settings?.schedule ?? 'off',
      fields: feedFields,
      imports: imports.map((one) => ({
        id: one.id,
        source: one.source,
        status: one.status,
        created_at: one.createdAt,
        finished_at: one.finishedAt,
        counts: countsOf(one.report),
      })),
    };
  };

  /** The import named by the route, or a 404 sent. */
  const importOf = async (request: FastifyRequest<{ Params: z.infer<typeof importParams> }>, reply: FastifyReply) => {
    const found = await store.feedImportOf(ctx.db, siteOf(request).id, request.params.id);
    if (!found) void reply.code(404).send({ message: `This site has no feed import ${request.params.id}.` });
    return found;
  };

  /** An import marked running that no server runs any more (its server stopped mid-import): failed, to be applied again. */
  const isStale = async (found: store.FeedImport) =>
    found.status === 'running' &&
    !ctx.feeds.isRunning(found.id) &&
    !(await store.holdsSiteImport(ctx.db, found.siteId, found.id, Date.now()));

  /** Why the import can no longer be checked or applied, if so: it runs, or it was applied (its CSV is gone). */
  const closed = async (found: store.FeedImport) =>
    found.status === 'running' && !(await isStale(found))
      ? importRunningMessage
      : found.status === 'done'
        ? 'This feed has been imported; upload it again to import it again.'
        : null;

  app.get(
    '/api/console/sites/:site/feed',
    { config: { console: 'stock.read', schemaError }, schema: { params: siteParams, response: answer } },
    async (request, reply) => reply.send(await settingsAnswer(siteOf(request).id)),
  );

  app.put(
    '/api/console/sites/:site/feed/settings',
    {
      bodyLimit: 64 * 1024,
      config: { console: 'stock.write', schemaError },
      schema: { params: siteParams, body: orEmpty(settingsBody), response: answer },
    },
    async (request, reply) => {
      const siteId = siteOf(request).id;
      const was = await store.feedSettingsOf(ctx.db, siteId);
      const { mapping, url, schedule } = request.body;
      const urlNow = url === undefined ? (was?.url ?? null) : url;
      const scheduleNow: FeedSchedule = schedule ?? was?.schedule ?? 'off';
      if (scheduleNow !== 'off' && !urlNow) return refuse(reply, { url: 'Enter the feed’s address to pull it on a schedule.' });
      const now = Date.now();
      // Turned on, or pointed elsewhere: the first pull is at the schedule's next look (within the minute).
      const restart = scheduleNow !== (was?.schedule ?? 'off') || urlNow !== (was?.url ?? null);
      await store.saveFeedSettings(
        ctx.db,
        siteId,
        {
          ...(mapping !== undefined ? { mapping } : {}),
          url: urlNow,
          schedule: scheduleNow,
          ...(scheduleNow === 'off' ? { nextPullAt: null } : restart || was?.nextPullAt == null ? { nextPullAt: now } : {}),
        },
        now,
      );
      const user = userOf(request);
      await insertFeedAudit(ctx, siteId, user, { mapping, url, schedule }, now);
      return reply.send(await settingsAnswer(siteId));
    },
  );

  app.post(
    '/api/console/sites/:site/feed/imports',
    {
      bodyLimit: feedMaxBytes,
      config: { console: 'stock.write', schemaError },
      schema: { params: siteParams, response: { 201: z.looseObject({}), ...refusals } },
      // A file over the limit is stopped as it streams in, and refused beside the file.
      errorHandler: (error, _request, reply) => {
        if ((error as { code?: string }).code !== 'FST_ERR_CTP_BODY_TOO_LARGE') throw error;
        return reply.code(413).send({ message: checkFields, fields: { file: 'The file is larger than 20 MB.' } });
      },
    },
    async (request, reply) => {
      const siteId = siteOf(request).id;
      let csv: Buffer;
      let source: 'upload' | 'url' = 'upload';
      if (Buffer.isBuffer(request.body)) csv = request.body;
      else {
        const given = feedUrlBody.safeParse(request.body ?? {});
        if (!given.success) {
          const fields = fieldErrors(given.error);
          return refuse(
            reply,
            fields.url ? { url: fields.url } : { file: 'Upload the CSV file of your stock, or give the feed’s address.' },
          );
        }
        try {
          csv = (await fetchFeedCsv(given.data.url, { allowPrivate: ctx.config.feeds.allowPrivateAddresses })).bytes;
        } catch (error) {
          if (error instanceof FetchFailed) return refuse(reply, { url: error.message });
          throw error;
        }
        source = 'url';
      }
      let feed: FeedCsv;
      try {
        feed = await readFeedCsv(csv);
      } catch (error) {
        if (error instanceof FeedFileRefused) return refuse(reply, source === 'url' ? { url: error.message } : { file: error.message });
        throw error;
      }
      const saved = (await store.feedSettingsOf(ctx.db, siteId))?.mapping ?? null;
      const mapping = mappingForColumns(saved, feed.columns) ?? guessMapping(feed.columns);
      const id = await store.createFeedImport(ctx.db, { siteId, source, csv }, Date.now());
      if (mapping.stocknum || mapping.vin) await store.setFeedImportMapping(ctx.db, id, mapping);
      return reply.code(201).send({
        id,
        columns: feed.columns,
        sample: feed.rows.flatMap((row) => (row.cells ? [row.cells] : [])).slice(0, 5),
        rows: feed.rows.length,
        mapping,
      });
    },
  );

  app.post(
    '/api/console/sites/:site/feed/imports/:id/dry-run',
    {
      bodyLimit: 64 * 1024,
      config: { console: 'stock.write', schemaError },
      schema: { params: importParams, body: orEmpty(dryRunBody), response: answer },
    },
    async (request, reply) => {
      const found = await importOf(request, reply);
      if (!found) return reply;
      const refusal = await closed(found);
      if (refusal) return reply.code(409).send({ message: refusal });
      const csv = await store.feedImportCsv(ctx.db, found.siteId, found.id);
      if (!csv?.length) return reply.code(409).send({ message: 'This import has no feed to check; upload it again.' });
      const feed = await readFeedCsv(csv);
      const { mapping } = request.body;
      const stray = Object.values(mapping).find((column) => !feed.columns.includes(column));
      if (stray !== undefined) return refuse(reply, { mapping: `This feed has no column ‘${stray}’.` });
      if (!mapping.stocknum && !mapping.vin) return refuse(reply, { mapping: mappingNeedsKey });
      const site = await ctx.sites.forId(found.siteId);
      if (!site) throw new Error('a console site with no config');
      const knownPhotos = new Map<string, string>();
      for (const [url, hash] of await store.knownFeedPhotos(ctx.db, site.id, feedPhotoUrls(feed, mapping)))
        knownPhotos.set(url, carPhotoUrl(hash));
      const plan = await planFeed(site, await listSiteCars(ctx.db, site.id), feed, mapping, { knownPhotos });
      const now = Date.now();
      await store.setFeedImportMapping(ctx.db, found.id, mapping);
      await store.saveFeedSettings(ctx.db, site.id, { mapping }, now);
      return reply.send({ counts: plan.counts, rows: rowsForReport(plan.rows, 1_000).map(rowView) });
    },
  );

  app.post(
    '/api/console/sites/:site/feed/imports/:id/apply',
    {
      bodyLimit: 1024,
      config: { console: 'stock.write', schemaError },
      schema: { params: importParams, response: { 202: z.looseObject({}), ...refusals } },
    },
    async (request, reply) => {
      const found = await importOf(request, reply);
      if (!found) return reply;
      const refusal = await closed(found);
      if (refusal) return reply.code(409).send({ message: refusal });
      if (!found.mapping) return refuse(reply, { mapping: 'Check the feed’s columns with a dry run first.' });
      const csv = await store.feedImportCsv(ctx.db, found.siteId, found.id);
      if (!csv?.length) return reply.code(409).send({ message: 'This import has no feed to apply; upload it again.' });
      const user = userOf(request);
      try {
        await ctx.feeds.start(found.siteId, found.id, found.mapping, { userId: user.id, email: user.email });
      } catch (error) {
        if (error instanceof ImportRunning) return reply.code(409).send({ message: error.message });
        throw error;
      }
      return reply.code(202).send({ id: found.id, status: 'running' });
    },
  );

  app.get(
    '/api/console/sites/:site/feed/imports/:id',
    { config: { console: 'stock.read', schemaError }, schema: { params: importParams, response: answer } },
    async (request, reply) => {
      const found = await importOf(request, reply);
      if (!found) return reply;
      // Running on no server any more: shown as it will be marked at the site's next import.
      const stale = await isStale(found);
      return reply.send({
        id: found.id,
        status: stale ? 'failed' : found.status,
        progress: found.progress,
        report: found.report,
        error: stale ? store.feedImportStopped : found.error,
      });
    },
  );
}

/** The feed settings change in the audit log: what was given. */
async function insertFeedAudit(
  ctx: PlatformContext,
  siteId: number,
  user: { id: number; email: string },
  change: Record<string, unknown>,
  now: number,
) {
  const given = Object.fromEntries(Object.entries(change).filter(([, value]) => value !== undefined));
  await insertAudit(
    ctx.db,
    { siteId, userId: user.id, userEmail: user.email, action: 'stock.write', target: 'feed settings', before: null, after: given },
    now,
  );
}
