/**
 * Image endpoint (SPEC §7 "images are served through an image CDN with width and quality
 * parameters", SPEC §9 quality and width constants).
 *
 *   GET /img/vehicle/:category/:body/:colour/:variant.jpg?w=&q=
 *       Generated vehicle photo (see @dealer/demo car-photo.ts and `vehiclePhotoPath` in @dealer/rules).
 *   GET /img/car/:hash.jpg?w=&q=
 *       A car photo a dealer uploaded (car-photos.ts), from its stored original (`loadUploadedPhoto`),
 *       never wider than that original.
 *   GET /img/logo/:slug.svg
 *       Site wordmark.
 *   GET /img/icon/:slug.png
 *       The wordmark's tile, 64 px: the site's icon while it has no uploaded logo.
 *
 * The extension in a photo's path is only a name: the output format is negotiated from Accept
 * (AVIF, else WebP, else JPEG; WebP before AVIF from `webpFromWidth` up), hence `Vary: Accept`.
 * Only what the pages link to is drawn (photo-vocabulary.ts): a category, body or colour the demo
 * stock and the drawing do not know, or a hash no uploaded car photo has, is a 404; a width outside
 * the pages' ladders or a quality outside SPEC §9's is a 400 naming the allowed values (default
 * 640 wide, quality 75).
 *
 * Both kinds of photo are served by one `pictureServer` (picture-serving.ts): one disk cache, one
 * set of render lanes and per-address limits, so uploaded photos can neither starve the generated
 * ones nor bypass the budget. Cache keys: `<renderVersion>/vehicle/<category>/<body>/<colour>/<variant>-w<w>-q<q>.<ext>`
 * and `<renderVersion>/car/<hash>/w<w>-q<q>.<ext>`. No input beyond the largest served picture is
 * decoded (renderVehiclePhoto, renderUploadedPhoto).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import sharp from 'sharp';
import { z } from 'zod';
import { messageSchema, noContentSchema, type SchemaRefusal } from '../http/zod-schemas';
import { carPhotoSvg } from '@dealer/demo/car-photo';
import { iconSvg, logoSvg } from '@dealer/demo/logo';
import { demoPhotoVocabulary, photoWidths } from '@dealer/demo/photo-vocabulary';
import { renderUploadedPhoto } from './car-photos';
import {
  encodePicture,
  extensions,
  negotiateFormat,
  noStore,
  photoQuery,
  PictureMissing,
  pictureServer,
  renderVersion,
  type ImageFormat,
  type PictureServingOptions,
} from './picture-serving';

export {
  boundSharpMemory,
  busyRetryAfterSeconds,
  negotiateFormat,
  renderVersion,
  smallPhotoMaxWidth,
  webpFromWidth,
  type ImageFormat,
} from './picture-serving';
export { RenderCancelled, renderLanes, RenderQueueFull, sharedRenders, type RenderLanes } from './render-lanes';

type VehiclePhoto = { category: string; body: string; colour: string; variant: number };

export interface ImageRoutesOptions extends PictureServingOptions {
  siteLogo: (slug: string) => Promise<{ name: string; colour: string } | null> | { name: string; colour: string } | null;
  /** Draws a photo; `renderVehiclePhoto` by default (tests hold it to fill the queue). */
  draw?: (photo: VehiclePhoto, width: number, quality: number, format: ImageFormat) => Promise<Buffer>;
  /** The stored original of an uploaded car photo by its hash, or null (`storedCarPhoto`); without it, /img/car is not served. */
  loadUploadedPhoto?: (hash: string) => Promise<Buffer | null>;
}

/** The largest picture drawn, in pixels: the widest served width at 4:3. No input larger than this is decoded. */
export const maxPhotoPixels = Math.max(...photoWidths) * Math.round((Math.max(...photoWidths) * 3) / 4);

const slugPattern = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
const variantPattern = /^([0-7])(?:\.(?:jpe?g|webp|avif|png))?$/;

export async function renderVehiclePhoto(photo: VehiclePhoto, width: number, quality: number, format: ImageFormat): Promise<Buffer> {
  const height = Math.round((width * 3) / 4);
  const svg = carPhotoSvg(photo, width, height);
  const image = sharp(Buffer.from(svg), { limitInputPixels: maxPhotoPixels }).resize(width, height, { fit: 'fill' });
  return encodePicture(image, format, quality);
}

/** Marks a zod issue about a category, body or colour the drawing does not know (a 404, not a 400). */
const notDrawn = { notDrawn: true };

/**
 * A photo request its schema refused: the first malformed part (slugs, then variant, then w,
 * then q) is a 400 naming it; a well-formed one the drawing does not know, a 404.
 */
function photoRefusal(error: z.ZodError): SchemaRefusal {
  const malformed = error.issues.find((issue) => issue.code !== 'custom' || issue.params?.notDrawn !== true);
  return malformed
    ? { status: 400, body: { message: malformed.message }, headers: noStore }
    : { status: 404, body: { message: error.issues[0]?.message }, headers: noStore };
}

const unknownSite = { message: 'Unknown site' };
const noSuchPhoto = { message: 'There is no such photo.' };

/** An uploaded photo's request its schema refused: a malformed hash names no photo (404); a bad w or q is a 400 naming it. */
function uploadedPhotoRefusal(error: z.ZodError, part: string): SchemaRefusal {
  return part === 'params'
    ? { status: 404, body: noSuchPhoto, headers: noStore }
    : { status: 400, body: { message: error.issues[0]?.message }, headers: noStore };
}

/** 200 is the picture's bytes, sent as they are (never serialised). */
const pictureResponses = { 200: z.instanceof(Buffer), 304: noContentSchema, '4xx': messageSchema, 503: messageSchema };

export async function imageRoutes(scope: FastifyInstance, opts: ImageRoutesOptions): Promise<void> {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const servePicture = pictureServer(opts);
  const vocabulary = demoPhotoVocabulary();
  const draw = opts.draw ?? renderVehiclePhoto;

  /** A category, body or colour: a slug, and one the drawing knows. */
  const drawnPart = (name: string, known: ReadonlySet<string>) =>
    z
      .string()
      .regex(slugPattern, `Invalid ${name}: use lowercase letters, digits and dashes (max 64)`)
      .refine((value) => known.has(value), {
        error: (issue) => `No photo is drawn for the ${name} "${String(issue.input)}".`,
        params: notDrawn,
      });
  const photoParams = z.object({
    category: drawnPart('category', vocabulary.categories),
    body: drawnPart('body', vocabulary.bodies),
    colour: drawnPart('colour', vocabulary.colours),
    // `3.jpg`: the extension is only a name (the format is negotiated).
    variant: z
      .string()
      .regex(variantPattern, 'Invalid variant: expected 0 to 7, e.g. 3.jpg')
      .transform((text) => Number(text[0])),
  });

  app.get(
    '/img/vehicle/:category/:body/:colour/:variant',
    {
      config: { schemaError: photoRefusal },
      schema: { params: photoParams, querystring: photoQuery, response: pictureResponses },
    },
    async (request, reply) => {
      const { category, body, colour, variant } = request.params;
      const { w: width, q: quality } = request.query;
      const format = negotiateFormat(request.headers.accept, width);
      return servePicture(request, reply, {
        key: `${renderVersion}/vehicle/${category}/${body}/${colour}/${variant}-w${width}-q${quality}.${extensions[format]}`,
        width,
        quality,
        format,
        draw: () => draw({ category, body, colour, variant }, width, quality, format),
      });
    },
  );

  const { loadUploadedPhoto } = opts;
  if (loadUploadedPhoto)
    app.get(
      '/img/car/:hash.jpg',
      {
        config: { schemaError: uploadedPhotoRefusal },
        schema: { params: z.object({ hash: z.string().regex(/^[0-9a-f]{32}$/) }), querystring: photoQuery, response: pictureResponses },
      },
      async (request, reply) => {
        const { hash } = request.params;
        const { w: width, q: quality } = request.query;
        const format = negotiateFormat(request.headers.accept, width);
        return servePicture(request, reply, {
          key: `${renderVersion}/car/${hash}/w${width}-q${quality}.${extensions[format]}`,
          width,
          quality,
          format,
          // Read in the render's slot: the store is asked only for pictures not cached, within the budget.
          draw: async () => {
            const original = await loadUploadedPhoto(hash);
            if (!original) throw new PictureMissing(noSuchPhoto.message);
            return renderUploadedPhoto(original, width, quality, format);
          },
        });
      },
    );

  // A slug no site could have is no site's logo either: a 404, as for an unknown one.
  const logoParams = z.object({ slug: z.string().regex(slugPattern) });
  const logoOptions = {
    config: { schemaError: (): SchemaRefusal => ({ status: 404, body: unknownSite }) },
    // 200 is the SVG text, sent as it is.
    schema: { params: logoParams, response: { 200: z.string(), '4xx': messageSchema } },
  };
  app.get('/img/logo/:slug.svg', logoOptions, async (request, reply) => {
    const site = await opts.siteLogo(request.params.slug);
    if (!site) return reply.code(404).send(unknownSite);
    const svg = logoSvg(site.name, site.colour);
    return (
      reply
        .header('content-type', 'image/svg+xml; charset=utf-8')
        // Drawn from the site's name and colour, which the dealer may change: kept five minutes, not a day.
        .header('cache-control', 'public, max-age=300')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
        .send(svg)
    );
  });

  // The tile as a PNG, drawn once per name and colour: a browser shows a PNG icon without making a
  // document for it, as it must for an SVG one (bench:pages; issue 25).
  const icons = new Map<string, Promise<Buffer>>();
  const iconOptions = { ...logoOptions, schema: { params: logoParams, response: { 200: z.instanceof(Buffer), '4xx': messageSchema } } };
  app.get('/img/icon/:slug.png', iconOptions, async (request, reply) => {
    const site = await opts.siteLogo(request.params.slug);
    if (!site) return reply.code(404).send(unknownSite);
    const key = `${site.colour}\n${site.name}`;
    let png = icons.get(key);
    if (!png) {
      png = sharp(Buffer.from(iconSvg(site.name, site.colour)))
        .png()
        .toBuffer();
      // One entry per site in use (a renamed or recoloured site replaces its own over time): bounded all the same.
      if (icons.size >= maxIcons) icons.delete(icons.keys().next().value!);
      icons.set(key, png);
      png.catch(() => icons.delete(key));
    }
    return reply
      .header('content-type', 'image/png')
      .header('cache-control', 'public, max-age=300')
      .header('x-content-type-options', 'nosniff')
      .send(await png);
  });
}

/** Icons kept drawn: more than the sites one instance serves. */
const maxIcons = 1000;
