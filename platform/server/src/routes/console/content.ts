import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contentKinds, pageSlugSchema, type ContentKind } from '@dealer/contracts/content';
import { insertAudit } from '@dealer/db/console-lead-store';
import { pagePath } from '@dealer/rules/routes';
import {
  changeContentDraft,
  contentById,
  createContent,
  deleteContent,
  listContentForConsole,
  publishContent,
  unpublishContent,
} from '@dealer/db/content-store';
import { saveSiteImage } from '@dealer/db/site-image-store';
import { carPhotoMaxBytes, carPhotoUrl, processCarPhoto } from '../../images/car-photos';
import { ImageRefused } from '../../images/site-images';
import type { PlatformContext } from '../../platform-context';
import { cleanContent } from '../../content/clean-content';
import { signPreview } from '../../remotes/remote-preview';
import { checkFields, refusals } from '../admin/admin-schemas';
import { fieldErrors } from '../auth';
import type { ConsoleRequests } from './console-access';

const siteParams = z.object({ site: z.string() });
const itemParams = siteParams.extend({ id: z.coerce.number({ error: 'The id is a number.' }).int().positive() });
const kindSchema = z.enum(contentKinds, { error: `kind is one of ${contentKinds.join(', ')}` });
/** A post's, offer's or job's address: one slug (SPEC §5's rule); a page's may sit under `pages/`. */
const itemSlug = z
  .string()
  .trim()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'Use lower-case letters, digits and dashes, such as spring-service-special.')
  .max(80, 'At most 80 characters.');
const slugFor = (kind: ContentKind) => (kind === 'page' ? pageSlugSchema : itemSlug);
/** Rich text is at most 100,000 characters per block, 60 blocks: a page's JSON is bounded well under this. */
const contentBodyLimit = 1024 * 1024;

const createBody = z.object({ kind: kindSchema, slug: z.string(), content: z.unknown() });
const draftBody = z.object({ slug: z.string().optional(), content: z.unknown() });

/** Where a stored item is seen on the site. */
export function contentPath(kind: ContentKind, slug: string, section: 'blog' | 'news' = 'blog'): string {
  if (kind === 'post') return `/${section}/${slug}`;
  if (kind === 'offer') return `/special-offers/${slug}`;
  if (kind === 'job') return '/careers';
  if (kind === 'landing') return `/search/${slug}`;
  if (kind === 'search_template') return '/';
  return pagePath(slug);
}

/**
 * A site's content in the dealer console (`content.read`, `content.write`; issue 24): pages, news
 * posts, special offers and jobs, each a draft until published.
 * - `GET …/content?kind=`: the list; `GET …/content/:id`: one, with its draft and what the site shows;
 * - `POST …/content`: a new draft; `PUT …/content/:id`: its draft changed (and its address);
 * - `POST …/content/:id/publish` and `/unpublish`; `DELETE …/content/:id`;
 * - `POST …/content/preview-link`: a link showing the site with its drafts, for an hour, to this browser;
 * - `PUT …/content-images`: a picture for a page (processed as car photos are), answered with its address.
 * Versions are checked against their kind's schema and their formatted text sanitised before they
 * are stored; every change is audited; publishing changes what every server's cached pages show.
 */
export function consoleContentRoutes(scope: FastifyInstance, ctx: PlatformContext, { userOf, siteOf }: ConsoleRequests) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const schemaError = (error: z.ZodError) => ({ status: 400, body: { message: checkFields, fields: fieldErrors(error) } });
  const refusedFields = (error: z.ZodError, prefix = 'content') => ({
    message: checkFields,
    fields: Object.fromEntries(Object.entries(fieldErrors(error)).map(([path, message]) => [`${prefix}.${path}`, message])),
  });
  const slugRefusal = (message: string) => ({ message: checkFields, fields: { slug: message } });

  async function audit(request: FastifyRequest, action: string, target: string, before: unknown, after: unknown) {
    const user = userOf(request);
    await insertAudit(
      ctx.db,
      { siteId: siteOf(request).id, userId: user.id, userEmail: user.email, action, target, before, after },
      Date.now(),
    );
  }

  const answerOf = async (siteId: number, id: number) => {
    const row = await contentById(ctx.db, siteId, id);
    if (!row) return null;
    const site = await ctx.sites.forId(siteId);
    return { ...row, path: contentPath(row.kind as ContentKind, row.slug, site?.features.blog_to_news ? 'news' : 'blog') };
  };

  /** The item as the console shows it after a change (404 should it have been deleted meanwhile). */
  const answered = async (reply: FastifyReply, siteId: number, id: number, code = 200) => {
    const answer = await answerOf(siteId, id);
    return answer ? reply.code(code).send(answer) : reply.code(404).send({ message: `This site has no content ${id}.` });
  };

  app.get(
    '/api/console/sites/:site/content',
    {
      config: { console: 'content.read', schemaError },
      schema: {
        params: siteParams,
        querystring: z.object({ kind: kindSchema.optional() }),
        response: { 200: z.looseObject({}), ...refusals },
      },
    },
    async (request) => ({ items: await listContentForConsole(ctx.db, siteOf(request).id, request.query.kind) }),
  );

  app.get(
    '/api/console/sites/:site/content/:id',
    { config: { console: 'content.read', schemaError }, schema: { params: itemParams, response: { 200: z.looseObject({}), ...refusals } } },
    async (request, reply) => {
      const answer = await answerOf(siteOf(request).id, request.params.id);
      return answer ? reply.send(answer) : reply.code(404).send({ message: `This site has no content ${request.params.id}.` });
    },
  );

  app.post(
    '/api/console/sites/:site/content',
    {
      bodyLimit: contentBodyLimit,
      config: { console: 'content.write', schemaError },
      schema: { params: siteParams, body: createBody, response: { 201: z.looseObject({}), ...refusals } },
    },
    async (request, reply) => {
      const { kind } = request.body;
      const slug = slugFor(kind).safeParse(request.body.slug);
      if (!slug.success) return reply.code(400).send(slugRefusal(slug.error.issues[0]!.message));
      const clean = cleanContent(kind, request.body.content);
      if (!clean.ok) return reply.code(400).send(refusedFields(clean.error));
      const siteId = siteOf(request).id;
      const created = await createContent(ctx.db, {
        siteId,
        kind,
        slug: slug.data.replace(/^pages\//, ''),
        draft: clean.version,
        userId: userOf(request).id,
        now: Date.now(),
      });
      if ('clash' in created) return reply.code(409).send(slugRefusal('Another one has this address; choose another.'));
      await audit(request, 'content.write', `${kind} ${slug.data}`, null, { draft: clean.version });
      return answered(reply, siteId, created.id, 201);
    },
  );

  app.put(
    '/api/console/sites/:site/content/:id',
    {
      bodyLimit: contentBodyLimit,
      config: { console: 'content.write', schemaError },
      schema: { params: itemParams, body: draftBody, response: { 200: z.looseObject({}), ...refusals } },
    },
    async (request, reply) => {
      const siteId = siteOf(request).id;
      const before = await contentById(ctx.db, siteId, request.params.id);
      if (!before) return reply.code(404).send({ message: `This site has no content ${request.params.id}.` });
      const kind = before.kind as ContentKind;
      let slug: string | undefined;
      if (request.body.slug !== undefined) {
        const parsed = slugFor(kind).safeParse(request.body.slug);
        if (!parsed.success) return reply.code(400).send(slugRefusal(parsed.error.issues[0]!.message));
        slug = parsed.data.replace(/^pages\//, '');
      }
      const clean = cleanContent(kind, request.body.content);
      if (!clean.ok) return reply.code(400).send(refusedFields(clean.error));
      const result = await changeContentDraft(ctx.db, {
        siteId,
        id: before.id,
        draft: clean.version,
        slug,
        userId: userOf(request).id,
        now: Date.now(),
      });
      if (result === 'missing') return reply.code(404).send({ message: `This site has no content ${request.params.id}.` });
      if (result === 'clash') return reply.code(409).send(slugRefusal('Another one has this address; choose another.'));
      await audit(
        request,
        'content.write',
        `${kind} ${slug ?? before.slug}`,
        { draft: before.draft, slug: before.slug },
        { draft: clean.version, slug },
      );
      return answered(reply, siteId, before.id);
    },
  );

  for (const action of ['publish', 'unpublish'] as const)
    app.post(
      `/api/console/sites/:site/content/:id/${action}`,
      {
        config: { console: 'content.write', schemaError },
        schema: { params: itemParams, response: { 200: z.looseObject({}), ...refusals } },
      },
      async (request, reply) => {
        const siteId = siteOf(request).id;
        const before = await contentById(ctx.db, siteId, request.params.id);
        if (!before) return reply.code(404).send({ message: `This site has no content ${request.params.id}.` });
        const input = { engine: ctx.dialect, siteId, id: before.id, userId: userOf(request).id, now: Date.now() };
        const result = action === 'publish' ? await publishContent(ctx.db, input) : await unpublishContent(ctx.db, input);
        if (result === 'missing') return reply.code(404).send({ message: `This site has no content ${request.params.id}.` });
        if (result === 'nothing') return reply.code(400).send({ message: 'There is nothing to publish yet: save a draft first.' });
        await audit(request, `content.${action}`, `${before.kind} ${before.slug}`, { published: before.published }, null);
        return answered(reply, siteId, before.id);
      },
    );

  app.delete(
    '/api/console/sites/:site/content/:id',
    {
      config: { console: 'content.write', schemaError },
      schema: { params: itemParams, response: { 200: z.looseObject({}), ...refusals } },
    },
    async (request, reply) => {
      const siteId = siteOf(request).id;
      const before = await contentById(ctx.db, siteId, request.params.id);
      if (!before) return reply.code(404).send({ message: `This site has no content ${request.params.id}.` });
      await deleteContent(ctx.db, { siteId, id: before.id, now: Date.now() });
      await audit(request, 'content.delete', `${before.kind} ${before.slug}`, { draft: before.draft, published: before.published }, null);
      return reply.send({ deleted: before.id });
    },
  );

  app.post(
    '/api/console/sites/:site/content/preview-link',
    {
      bodyLimit: 4096,
      config: { console: 'content.read', schemaError },
      schema: {
        params: siteParams,
        body: z.object({
          path: z
            .string()
            .max(300)
            .regex(/^\/(?!\/)/, 'A page address starts with one slash, such as /about.'),
        }),
        response: { 200: z.object({ url: z.string(), expires_in_minutes: z.number() }), ...refusals },
      },
    },
    async (request, reply) => {
      const site = siteOf(request);
      const token = signPreview(ctx.config.leads.tokenSecret, site.id, null, Date.now(), true);
      const host = (request.headers.host ?? '').toLowerCase().replace(/^console\./, `${site.slug}.`);
      const url = new URL(request.body.path, `${request.protocol}://${host}`);
      url.searchParams.set('dp_preview', token);
      return reply.send({ url: url.href, expires_in_minutes: 60 });
    },
  );

  app.put(
    '/api/console/sites/:site/content-images',
    {
      bodyLimit: carPhotoMaxBytes,
      config: { console: 'content.write', schemaError },
      schema: {
        params: siteParams,
        body: z.instanceof(Buffer, { error: 'Upload a JPEG, PNG or WebP picture.' }),
        response: { 200: z.object({ src: z.string() }), ...refusals },
      },
    },
    async (request, reply) => {
      let picture;
      try {
        picture = await processCarPhoto(request.body, siteOf(request).id, Date.now());
      } catch (error) {
        if (error instanceof ImageRefused) return reply.code(400).send({ message: error.message, fields: { image: error.message } });
        throw error;
      }
      await saveSiteImage(ctx.db, picture);
      return reply.send({ src: carPhotoUrl(picture.hash) });
    },
  );
}
