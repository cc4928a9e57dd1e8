import { createReadStream, ReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { refusalSchema } from '../http/zod-schemas';
import { findLeadFile, storedFilePath } from '@dealer/leads/lead-file-store';
import { leadFileName, verifyLeadFileLink } from '@dealer/leads/lead-file-links';
import type { PlatformContext } from '../platform-context';

/** `attachment` with a plain ASCII name for old clients and the real one (RFC 5987) for the rest. */
export function attachmentHeader(name: string): string {
  const ascii = name.replace(/[^\w.\- ()]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * A lead's file through the signed, expiring link its deliveries carry (see @dealer/leads lead-file-links.ts):
 * no admin key, so a CRM or a salesperson reading the e-mail can open it, on the address of the site
 * the lead came to (another dealer's domain answers 404). Always a download, never
 * shown inline, never cached by a shared cache.
 */
/** The link's parts as sent: the signature check judges them (a bad one is a 403 of its own words). */
const schema = {
  params: z.object({ fileId: z.string() }),
  querystring: z.looseObject({ expires: z.unknown().optional(), sig: z.unknown().optional() }),
  // 200 is the file itself, streamed (never serialised).
  response: { 200: z.instanceof(ReadStream), '4xx': refusalSchema },
};

export async function leadFileRoutes(scope: FastifyInstance, ctx: PlatformContext) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  app.get('/api/lead-files/:fileId', { schema }, async (request, reply) => {
    reply.header('Cache-Control', 'private, no-store').header('X-Robots-Tag', 'noindex');
    const notFound = () => reply.code(404).send({ message: 'This file does not exist (any more).' });
    if (!/^[1-9]\d{0,15}$/.test(request.params.fileId)) return notFound();
    const fileId = Number(request.params.fileId);
    const check = verifyLeadFileLink(
      { fileId, expires: request.query.expires, sig: request.query.sig },
      ctx.config.leads.tokenSecret,
      Math.floor(Date.now() / 1000),
    );
    if (!check.ok) {
      const message =
        check.reason === 'expired'
          ? 'This download link has expired. The dealership can open the file in the lead in its dealer admin.'
          : 'This download link is not valid. Please use the whole link exactly as it was sent.';
      return reply.code(403).send({ message });
    }
    // Only on the address of the site the lead came to: another dealer's domain does not serve it.
    const resolved = await request.siteContext();
    const found = await findLeadFile(ctx.db, fileId);
    const file = found && typeof resolved === 'object' && resolved !== null && resolved.site.id === found.site_id ? found : null;
    const path = file ? storedFilePath(ctx.config.dataDir, file.path) : null;
    const size = path
      ? await stat(path).then(
          (info) => (info.isFile() ? info.size : null),
          () => null,
        )
      : null;
    if (!file || !path || size === null) return notFound();
    return reply
      .header('Content-Type', file.content_type)
      .header('Content-Length', size)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Disposition', attachmentHeader(leadFileName(file.original_name, path)))
      .send(createReadStream(path));
  });
}
