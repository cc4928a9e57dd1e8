import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { leadInputSchema } from '@dealer/contracts/lead';
import { createLead } from '../db/lead-store';
import type { PlatformContext } from '../platform-context';
import { siteDeps } from '../platform-context';
import { requireSite } from '../tenancy/site-context';

const leadBodySchema = z.object({ lead: leadInputSchema });

/** Field → message, so the form can show each error next to its field. */
function fieldErrors(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.filter((part) => part !== 'lead').join('.') || 'lead';
    fields[key] ??= issue.message;
  }
  return fields;
}

/** SPEC §7 POST /api/leads: the lead is committed before the shopper hears it succeeded. */
export async function leadRoutes(app: FastifyInstance, ctx: PlatformContext) {
  app.post('/api/leads', async (request, reply) => {
    const resolved = await requireSite(request, reply, siteDeps(ctx));
    if (!resolved) return reply;
    const parsed = leadBodySchema.safeParse(request.body);
    if (!parsed.success) {
      return reply.code(400).send({ message: 'Please check the highlighted fields.', fields: fieldErrors(parsed.error) });
    }
    const { site } = resolved;
    const input = parsed.data.lead;
    const idempotencyKey = (request.headers['idempotency-key'] as string | undefined)?.slice(0, 200) ?? null;
    const payload = {
      ...input,
      dealership_slug: input.dealership_slug || site.dealerships[0]?.slug || site.slug,
      website_slug: site.slug,
      source: 'Website',
      user_agent: request.headers['user-agent'] ?? null,
    };
    const { lead, created } = await createLead(ctx.db, {
      siteId: site.id,
      category: input.category,
      leadStatus: input.lead_status ?? 'New',
      payload,
      idempotencyKey,
    });
    return reply.code(created ? 201 : 200).send({ id: lead.id, lead_id: lead.id });
  });
}
