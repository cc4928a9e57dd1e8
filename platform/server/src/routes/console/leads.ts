import { createReadStream, ReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  consoleLead,
  consoleLeadPage,
  notesOfLead,
  changeLeadWorkflow,
  leadFormsOfSite,
  type ConsoleLeadFilter,
} from '@dealer/db/console-lead-store';
import { consoleUsersOfSite } from '@dealer/db/console-account-store';
import { jobsOfLeads, listDeliveryLog, listJobs, retryDeadJobs, summariseDelivery } from '@dealer/db/lead-job-store';
import { listLeadFiles } from '@dealer/db/lead-store';
import { leadDealerStatuses } from '@dealer/db/schema';
import { pageSizes, type PagePosition } from '@dealer/db/page-cursor';
import { leadsCsvPages } from '@dealer/leads/lead-csv';
import { leadFileName } from '@dealer/leads/lead-file-links';
import { storedFilePath } from '@dealer/leads/lead-file-store';
import { attachmentHeader } from '../lead-files';
import type { PlatformContext } from '../../platform-context';
import { checkFields, nextCursor, page, pageParams, refusals } from '../admin/admin-schemas';
import { fieldErrors } from '../auth';
import type { ConsoleRequests } from './console-access';

const day = (name: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${name} must be a date, YYYY-MM-DD`)
    .optional();

const leadFilterSchema = z.object({
  status: z.enum(leadDealerStatuses, { error: `status must be one of ${leadDealerStatuses.join(', ')}` }).optional(),
  form: z.string().max(60).optional(),
  location: z.coerce.number({ error: 'location must be a location id' }).int().positive().optional(),
  from: day('from'),
  to: day('to'),
  q: z.string().trim().max(100, 'Search for at most 100 characters.').optional(),
  assignee: z.coerce.number().int().positive().optional(),
});

const siteParams = z.object({ site: z.string() });
const leadParams = siteParams.extend({
  id: z.coerce.number({ error: 'the lead id must be a number' }).int().positive('the lead id must be positive'),
});

const workflowBody = z
  .object({
    status: z.enum(leadDealerStatuses, { error: `status must be one of ${leadDealerStatuses.join(', ')}` }).optional(),
    assignee_id: z.number().int().positive().nullable().optional(),
    note: z.string().trim().max(4000, 'A note is at most 4,000 characters.').optional(),
  })
  .refine((body) => body.status !== undefined || body.assignee_id !== undefined || (body.note ?? '') !== '', {
    message: 'Change the status or the assignee, or write a note.',
    path: ['note'],
  });

/** The day's start or end in UTC, as the dealer's filter names it. */
const dayStart = (text: string | undefined) => (text === undefined ? undefined : Date.parse(`${text}T00:00:00Z`));
const dayEnd = (text: string | undefined) => (text === undefined ? undefined : Date.parse(`${text}T23:59:59.999Z`));

const filterOf = (query: z.infer<typeof leadFilterSchema>): ConsoleLeadFilter => ({
  status: query.status,
  category: query.form,
  locationId: query.location,
  from: dayStart(query.from),
  to: dayEnd(query.to),
  text: query.q || undefined,
  assigneeId: query.assignee,
});

/**
 * The leads inbox of a site (`leads.read`, `leads.update`, `leads.export`):
 * - `GET /api/console/sites/:site/leads`: a page, filtered by workflow status, form, location, dates, text and assignee;
 * - `GET /api/console/sites/:site/leads/choices`: what the filters offer (the forms the site's leads came from,
 *   its locations, the people a lead can be assigned to);
 * - `GET /api/console/sites/:site/leads.csv`: the filtered set as CSV, streamed a page at a time;
 * - `GET /api/console/sites/:site/leads/:id`: every field sent, files, notes, the delivery log per target;
 * - `POST /api/console/sites/:site/leads/:id/workflow`: status, assignee and a note (audited);
 * - `POST /api/console/sites/:site/leads/:id/retry`: delivery retried now for the targets that gave up.
 */
export function consoleLeadRoutes(scope: FastifyInstance, ctx: PlatformContext, { userOf, siteOf }: ConsoleRequests) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const schemaError = (error: z.ZodError) => ({ status: 400, body: { message: checkFields, fields: fieldErrors(error) } });

  app.get(
    '/api/console/sites/:site/leads',
    {
      config: { console: 'leads.read', schemaError },
      schema: { params: siteParams, querystring: leadFilterSchema.extend(pageParams), response: { 200: page('leads'), ...refusals } },
    },
    async (request, reply) => {
      const site = siteOf(request);
      const { limit, cursor } = request.query;
      const found = await consoleLeadPage(ctx.db, ctx.dialect, site.id, filterOf(request.query), { after: cursor, limit });
      const jobs = await jobsOfLeads(
        ctx.db,
        site.id,
        found.leads.map((lead) => lead.id),
      );
      const leads = found.leads.map((lead) => ({ ...lead, delivery: summariseDelivery(lead, jobs.get(lead.id) ?? []) }));
      return reply.send({ leads, next_cursor: nextCursor(found.next) });
    },
  );

  app.get(
    '/api/console/sites/:site/leads.csv',
    {
      config: { console: 'leads.export', schemaError },
      schema: { params: siteParams, querystring: leadFilterSchema, response: { 200: z.instanceof(Readable), ...refusals } },
    },
    async (request, reply) => {
      const site = siteOf(request);
      const filter = filterOf(request.query);
      async function* pages() {
        let after: PagePosition | null = null;
        do {
          const found = await consoleLeadPage(ctx.db, ctx.dialect, site.id, filter, { after, limit: pageSizes.max });
          const jobs = await jobsOfLeads(
            ctx.db,
            site.id,
            found.leads.map((lead) => lead.id),
          );
          if (found.leads.length > 0)
            yield found.leads.map((lead) => ({ ...lead, delivery: summariseDelivery(lead, jobs.get(lead.id) ?? []) }));
          after = found.next;
        } while (after);
      }
      const today = new Date().toISOString().slice(0, 10);
      return reply
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="leads-${site.slug}-${today}.csv"`)
        .send(Readable.from(leadsCsvPages(pages())));
    },
  );

  app.get(
    '/api/console/sites/:site/leads/choices',
    {
      config: { console: 'leads.read' },
      schema: {
        params: siteParams,
        response: {
          200: z.object({
            forms: z.array(z.string()),
            locations: z.array(z.object({ id: z.number(), name: z.string() })),
            assignees: z.array(z.object({ id: z.number(), email: z.string(), name: z.string().nullable() })),
          }),
          ...refusals,
        },
      },
    },
    async (request, reply) => {
      const site = siteOf(request);
      const [forms, config, users] = await Promise.all([
        leadFormsOfSite(ctx.db, site.id),
        ctx.sites.forId(site.id),
        consoleUsersOfSite(ctx.db, site.id),
      ]);
      return reply.send({
        forms,
        locations: (config?.locations ?? []).map((location) => ({ id: location.id, name: location.name })),
        assignees: users.map((user) => ({ id: user.id, email: user.email, name: user.name })),
      });
    },
  );

  app.get(
    '/api/console/sites/:site/leads/:id',
    { config: { console: 'leads.read', schemaError }, schema: { params: leadParams, response: { 200: z.looseObject({}), ...refusals } } },
    async (request, reply) => {
      const site = siteOf(request);
      const lead = await consoleLead(ctx.db, site.id, request.params.id);
      if (!lead) return reply.code(404).send({ message: `No lead with id ${request.params.id} on this site.` });
      const [jobs, log, files, notes, users] = await Promise.all([
        listJobs(ctx.db, lead.id),
        listDeliveryLog(ctx.db, lead.id),
        listLeadFiles(ctx.db, lead.id),
        notesOfLead(ctx.db, lead.id),
        consoleUsersOfSite(ctx.db, site.id),
      ]);
      return reply.send({
        lead: { ...lead, delivery: summariseDelivery(lead, jobs) },
        jobs: jobs.map(({ target, ...job }) => ({ ...job, target: target.kind })),
        log,
        files: files.map((file) => ({ id: file.id, name: file.original_name, size: file.size, type: file.content_type })),
        notes,
        assignees: users.map((user) => ({ id: user.id, email: user.email, name: user.name })),
      });
    },
  );

  app.post(
    '/api/console/sites/:site/leads/:id/workflow',
    {
      bodyLimit: 16 * 1024,
      config: { console: 'leads.update', schemaError },
      schema: { params: leadParams, body: workflowBody, response: { 200: z.looseObject({}), ...refusals } },
    },
    async (request, reply) => {
      const site = siteOf(request);
      const user = userOf(request);
      const { status, assignee_id: assigneeId, note } = request.body;
      if (assigneeId != null && !(await consoleUsersOfSite(ctx.db, site.id)).some((one) => one.id === assigneeId))
        return reply
          .code(400)
          .send({ message: checkFields, fields: { assignee_id: 'Assign the lead to someone who works on this site.' } });
      const changed = await changeLeadWorkflow(
        ctx.db,
        site.id,
        request.params.id,
        { status, assigneeId, note: note || undefined },
        { userId: user.id, email: user.email },
        Date.now(),
      );
      if (!changed) return reply.code(404).send({ message: `No lead with id ${request.params.id} on this site.` });
      return reply.send({ lead_id: request.params.id, ...changed.after, notes: await notesOfLead(ctx.db, request.params.id) });
    },
  );

  app.post(
    '/api/console/sites/:site/leads/:id/retry',
    {
      bodyLimit: 1024,
      config: { console: 'leads.update', schemaError },
      schema: { params: leadParams, response: { 200: z.object({ retried: z.number() }), ...refusals } },
    },
    async (request, reply) => {
      const site = siteOf(request);
      const lead = await consoleLead(ctx.db, site.id, request.params.id);
      if (!lead) return reply.code(404).send({ message: `No lead with id ${request.params.id} on this site.` });
      const retried = await retryDeadJobs(ctx.db, lead.id);
      if (retried > 0) ctx.leads.worker.nudge();
      return reply.send({ retried });
    },
  );

  /** A file the shopper sent: always a download (never shown inline, never sniffed), never cached. */
  app.get(
    '/api/console/sites/:site/leads/:id/files/:fileId',
    {
      config: { console: 'leads.read', schemaError },
      schema: { params: leadParams.extend({ fileId: z.string().max(20) }), response: { 200: z.instanceof(ReadStream), ...refusals } },
    },
    async (request, reply) => {
      const site = siteOf(request);
      const lead = await consoleLead(ctx.db, site.id, request.params.id);
      const file = lead ? (await listLeadFiles(ctx.db, lead.id)).find((entry) => String(entry.id) === request.params.fileId) : undefined;
      const path = file ? storedFilePath(ctx.config.dataDir, file.path) : null;
      const size = path
        ? await stat(path).then(
            (info) => (info.isFile() ? info.size : null),
            () => null,
          )
        : null;
      if (!file || !path || size === null) return reply.code(404).send({ message: 'This lead has no such file.' });
      return reply
        .header('Content-Type', file.content_type)
        .header('Content-Length', size)
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Security-Policy', "default-src 'none'; sandbox")
        .header('Content-Disposition', attachmentHeader(leadFileName(file.original_name, path)))
        .send(createReadStream(path));
    },
  );
}
