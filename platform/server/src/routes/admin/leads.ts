import { createReadStream, ReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { findLead, listLeadFiles, releaseLead } from '@dealer/db/lead-store';
import { listDeliveryLog, listJobs, retryDeadJobs, summariseDelivery } from '@dealer/db/lead-job-store';
import { listSiteSlugs } from '@dealer/db/site-store';
import { deliveryTargetsOf } from '@dealer/leads/delivery-config';
import { leadsCsvPages } from '@dealer/leads/lead-csv';
import { leadFileName } from '@dealer/leads/lead-file-links';
import { storedFilePath } from '@dealer/leads/lead-file-store';
import { eachLeadPage, listLeadPage } from '@dealer/leads/lead-listing';
import type { PlatformContext } from '../../platform-context';
import { attachmentHeader } from '../lead-files';
import type { AdminRequests } from './admin-access';
import { nextCursor, page, pageParams, refusals, siteLevel, siteParam } from './admin-schemas';

const deliveryStates = ['delivered', 'pending', 'retrying', 'dead', 'held_as_spam', 'incomplete', 'mock', 'not_configured'] as const;
const leadFilterSchema = z.object({
  site: siteParam,
  since: z.coerce.number().int().nonnegative().optional(),
  /** A lead status ('New', 'Incomplete'...) or 'suspected_spam'. */
  status: z.string().optional(),
  /** Where delivery stands, e.g. 'dead' for the dead letters. */
  delivery: z.enum(deliveryStates, { error: `delivery must be one of ${deliveryStates.join(', ')}` }).optional(),
  /** Mock-mode leads: left out by default, 'only' or 'include'. */
  mock: z.enum(['only', 'include'], { error: 'mock must be only or include' }).optional(),
});
const leadQuerySchema = leadFilterSchema.extend(pageParams);
const leadParamsSchema = z.object({
  id: z.coerce
    .number({ error: 'the lead id must be a number' })
    .int('the lead id must be a whole number')
    .positive('the lead id must be positive'),
});
const leadFileParamsSchema = leadParamsSchema.extend({ fileId: z.string() });

const leadFilter = (query: z.infer<typeof leadFilterSchema>) => ({
  since: query.since,
  status: query.status,
  delivery: query.delivery,
  mock: query.mock === 'only' ? true : query.mock === 'include' ? ('all' as const) : false,
});

const leadRoute = <R extends z.ZodType>(answer: R) => ({
  config: siteLevel('lead'),
  schema: { params: leadParamsSchema, response: { 200: answer, ...refusals } },
});

/** A site's leads: listed, exported as CSV, their deliveries seen, released from spam, retried, their files downloaded. */
export function adminLeadRoutes(scope: FastifyInstance, ctx: PlatformContext, { accessOf, siteOf }: AdminRequests) {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  /** A page of a site's leads, newest first, each with where its delivery stands. Update tokens are never stored, so never listed. */
  app.get(
    '/api/admin/leads',
    { config: siteLevel('lead'), schema: { querystring: leadQuerySchema, response: { 200: page('leads'), ...refusals } } },
    async (request, reply) => {
      const found = await siteOf(request, reply, request.query.site);
      if (!found) return reply;
      const { limit, cursor } = request.query;
      const leads = await listLeadPage(ctx.db, found.siteId, leadFilter(request.query), { after: cursor, limit });
      return reply.header('Cache-Control', 'no-store').send({ leads: leads.leads, next_cursor: nextCursor(leads.next) });
    },
  );

  /** Every lead of the filter as CSV, written a page at a time as it is read. */
  app.get(
    '/api/admin/leads.csv',
    { config: siteLevel('lead'), schema: { querystring: leadFilterSchema, response: { 200: z.instanceof(Readable), ...refusals } } },
    async (request, reply) => {
      const found = await siteOf(request, reply, request.query.site);
      if (!found) return reply;
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .header('Cache-Control', 'no-store')
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="leads-${found.slug.replace(/[^a-z0-9-]/gi, '')}-${day}.csv"`)
        .send(Readable.from(leadsCsvPages(eachLeadPage(ctx.db, found.siteId, leadFilter(request.query)))));
    },
  );

  /** One lead by id, if the key opens its site; null (404 sent) if it does not exist (or is another dealer's). */
  async function leadOf(request: FastifyRequest, reply: FastifyReply, id: number) {
    const access = accessOf(request);
    const lead = await findLead(ctx.db, id);
    if (!lead || (access.kind === 'dealer' && lead.site_id !== access.siteId)) {
      await reply.code(404).send({ message: `No lead with id ${id}.` });
      return null;
    }
    return lead;
  }

  const siteSlugOf = async (siteId: number) => (await listSiteSlugs(ctx.db)).find((site) => site.id === siteId)?.slug ?? null;

  /** The delivery log of a lead: its jobs (one per target) and one row per attempt, with what the target said. */
  app.get(
    '/api/admin/leads/:id/deliveries',
    leadRoute(
      z.object({
        lead_id: z.number(),
        site: z.string().nullable(),
        delivery: z.unknown(),
        jobs: z.array(z.looseObject({})),
        log: z.array(z.looseObject({})),
      }),
    ),
    async (request, reply) => {
      const lead = await leadOf(request, reply, request.params.id);
      if (!lead) return reply;
      const [jobs, log] = await Promise.all([listJobs(ctx.db, lead.id), listDeliveryLog(ctx.db, lead.id)]);
      return reply.header('Cache-Control', 'no-store').send({
        lead_id: lead.id,
        site: await siteSlugOf(lead.site_id),
        delivery: summariseDelivery(lead, jobs),
        jobs: jobs.map(({ target, ...job }) => ({ ...job, target: target.kind })),
        log,
      });
    },
  );

  /** Releases a lead held as suspected spam: it is marked genuine and, when complete, its deliveries are enqueued. */
  app.post(
    '/api/admin/leads/:id/release',
    leadRoute(z.object({ lead: z.looseObject({}), enqueued: z.number() })),
    async (request, reply) => {
      const lead = await leadOf(request, reply, request.params.id);
      if (!lead) return reply;
      const result = await releaseLead(ctx.db, lead.id, async (siteId) => {
        const site = await ctx.sites.forId(siteId);
        return site ? deliveryTargetsOf(site) : [];
      });
      if (!result) return reply.code(404).send({ message: `No lead with id ${lead.id}.` });
      if (!result.released) return reply.code(409).send({ message: `Lead ${lead.id} is not held as suspected spam.` });
      if (result.enqueued > 0) ctx.leads.worker.nudge();
      return reply.header('Cache-Control', 'no-store').send({ lead: result.lead, enqueued: result.enqueued });
    },
  );

  /** Gives a lead's dead deliveries another round of attempts (after the dealer fixed a target). */
  app.post('/api/admin/leads/:id/retry', leadRoute(z.object({ lead_id: z.number(), retried: z.number() })), async (request, reply) => {
    const lead = await leadOf(request, reply, request.params.id);
    if (!lead) return reply;
    const retried = await retryDeadJobs(ctx.db, lead.id);
    if (retried === 0) return reply.code(409).send({ message: `Lead ${lead.id} has no dead deliveries to retry.` });
    ctx.leads.worker.nudge();
    return reply.header('Cache-Control', 'no-store').send({ lead_id: lead.id, retried });
  });

  /** A lead's uploaded files, listed, and one downloaded (as an attachment, never rendered inline). */
  app.get(
    '/api/admin/leads/:id/files',
    leadRoute(z.object({ files: z.array(z.looseObject({ id: z.number() })) })),
    async (request, reply) => {
      const lead = await leadOf(request, reply, request.params.id);
      if (!lead) return reply;
      const files = await listLeadFiles(ctx.db, lead.id);
      return reply.header('Cache-Control', 'no-store').send({ files: files.map(({ path: _path, ...file }) => file) });
    },
  );

  /**
   * The download goes by the stored name's extension, the type the upload sniffed, never the
   * shopper's own: a PDF sent as `invoice.html` is saved as `invoice.html.pdf`, not opened as a page.
   */
  app.get(
    '/api/admin/leads/:id/files/:fileId',
    { config: siteLevel('lead'), schema: { params: leadFileParamsSchema, response: { 200: z.instanceof(ReadStream), ...refusals } } },
    async (request, reply) => {
      const lead = await leadOf(request, reply, request.params.id);
      if (!lead) return reply;
      const file = (await listLeadFiles(ctx.db, lead.id)).find((entry) => String(entry.id) === request.params.fileId);
      const path = file ? storedFilePath(ctx.config.dataDir, file.path) : null;
      const size = path
        ? await stat(path).then(
            (info) => (info.isFile() ? info.size : null),
            () => null,
          )
        : null;
      if (!file || !path || size === null)
        return reply.code(404).send({ message: `Lead ${lead.id} has no file ${request.params.fileId}.` });
      return reply
        .header('Cache-Control', 'no-store')
        .header('Content-Type', file.content_type)
        .header('Content-Length', size)
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Disposition', attachmentHeader(leadFileName(file.original_name, path)))
        .send(createReadStream(path));
    },
  );
}
