import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { carStatuses, carTypes, type Car } from '@dealer/contracts/car';
import type { SiteConfig } from '@dealer/contracts/site';
import type { PlatformDb } from '@dealer/db/database';
import { findCarById } from '@dealer/db/car-store';
import { insertAudit } from '@dealer/db/console-lead-store';
import { decodeCursor, encodeCursor, pageSizes } from '@dealer/db/page-cursor';
import { saveSiteImage } from '@dealer/db/site-image-store';
import { addCar, changeCar, clashingCars, refreshStockSummary, slugTaken, stockPage } from '@dealer/db/stock-store';
import { vehiclePath } from '@dealer/rules/routes';
import { carPhotoMaxBytes, carPhotoUrl, processCarPhoto } from '../../images/car-photos';
import { ImageRefused } from '../../images/site-images';
import type { PlatformContext } from '../../platform-context';
import { carChangeBodySchema, carEditOf, CarRefused, carFromEdit, newCarSchema, type CarEdit } from '../../stock/car-edit';
import { checkFields, refusals } from '../admin/admin-schemas';
import { fieldErrors } from '../auth';
import type { ConsoleRequests } from './console-access';

const siteParams = z.object({ site: z.string() });
/** The most photos a car shows (the form's limit too). */
const maxPhotos = 100;
const carParams = siteParams.extend({ id: z.coerce.number({ error: 'The car id is a number.' }).int().positive() });
const listQuery = z.object({
  q: z.string().trim().max(100, 'Search for at most 100 characters.').optional(),
  status: z.enum(carStatuses, { error: `status is one of ${carStatuses.join(', ')}` }).optional(),
  type: z.enum(carTypes, { error: `type is one of ${carTypes.join(', ')}` }).optional(),
  shown: z.enum(['yes', 'no'], { error: 'shown is yes or no' }).optional(),
  limit: z.coerce.number().int().min(1).max(pageSizes.max).default(pageSizes.default),
  cursor: z.string().max(200).optional(),
});

/** A row of the stock list: enough to find the car and see where it stands. */
const listed = (car: Car) => ({
  id: car.id,
  name: car.name,
  stocknum: car.stocknum,
  vin: car.vin,
  price: car.price,
  status: car.status,
  car_type: car.car_type,
  shown: car.show_on_dealer_website,
  location_name: car.location_name,
  photo: car.primary_image_url || null,
  photos: car.photos_count,
});

/**
 * A site's stock in the dealer console (`stock.read`, `stock.write`; issue 24):
 * - `GET …/stock?q=&status=&type=&shown=&cursor=`: the cars newest first, found by make, model, stock number or VIN;
 * - `GET …/stock/:id`: one car's fields as the form shows them, its page's address, the site's locations;
 * - `POST …/stock`: a new car; `PATCH …/stock/:id`: any of its fields (photos reordered or removed through `photos`);
 * - `PUT …/stock/:id/photos`: a photo (JPEG, PNG or WebP, at most 15 MB) processed and added last.
 * Every change is saved, pushed to search and the site's stock summary before the answer (so search
 * and pages show it at once), and audited.
 */
export function consoleStockRoutes(scope: FastifyInstance, ctx: PlatformContext, { userOf, siteOf }: ConsoleRequests) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const schemaError = (error: z.ZodError) => ({ status: 400, body: { message: checkFields, fields: fieldErrors(error) } });

  const siteConfigOf = async (request: FastifyRequest) => {
    const site = await ctx.sites.forId(siteOf(request).id);
    if (!site) throw new Error('a console site with no config');
    return site;
  };
  const carOfSite = async (siteId: number, id: number) => {
    const found = await findCarById(ctx.db, id);
    return found && found.siteId === siteId ? found.car : null;
  };
  const carAnswer = (site: { url: string; detail_path: string; locations: { id: number; name: string }[] }, car: Car) => ({
    car: { id: car.id, slug: car.slug, name: car.name, ...carEditOf(car) },
    page: `${site.url.replace(/\/$/, '')}${vehiclePath(site as Parameters<typeof vehiclePath>[0], car.slug)}`,
    locations: site.locations.map((location) => ({ id: location.id, name: location.name })),
  });

  /** A stock number or VIN another car of the site has: refused beside its field. */
  async function refuseClashes(siteId: number, car: Car, db: PlatformDb = ctx.db) {
    const clash = await clashingCars(db, siteId, car);
    if (clash.stocknum || clash.vin)
      throw new CarRefused({
        ...(clash.stocknum ? { stocknum: 'Another car has this stock number.' } : {}),
        ...(clash.vin ? { vin: 'Another car has this VIN.' } : {}),
      });
  }

  /** After a car is saved: search, the site's stock summary and pages, then the audit log. */
  async function published(request: FastifyRequest, siteId: number, before: Car | null, car: Car) {
    const now = Date.now();
    try {
      await ctx.indexer.indexCar(siteId, car);
    } catch (error) {
      // The store has it; search catches up at the next full indexing.
      request.log.error({ err: error, carId: car.id }, 'car saved but not pushed to search');
    }
    await refreshStockSummary(ctx.db, ctx.dialect, siteId, now);
    ctx.sites.clear();
    const user = userOf(request);
    const was = before ? carEditOf(before) : null;
    const is = carEditOf(car);
    const changedFields = (Object.keys(is) as (keyof CarEdit)[]).filter((key) => JSON.stringify(was?.[key]) !== JSON.stringify(is[key]));
    if (before && changedFields.length === 0) return;
    await insertAudit(
      ctx.db,
      {
        siteId,
        userId: user.id,
        userEmail: user.email,
        action: 'stock.write',
        target: `car ${car.stocknum} (${car.id})`,
        before: was ? Object.fromEntries(changedFields.map((key) => [key, was[key]])) : null,
        after: Object.fromEntries(changedFields.map((key) => [key, is[key]])),
      },
      now,
    );
  }

  /** Changes a car as it is in the store now (a deposit taken meanwhile stays), checked before it is written. */
  async function changed(request: FastifyRequest, site: SiteConfig, carId: number, change: (car: Car) => Partial<CarEdit>) {
    const nowSeconds = Math.floor(Date.now() / 1000);
    const saved = await changeCar(ctx.db, ctx.dialect, site.id, carId, async (before, trx) => {
      const car = carFromEdit(site, before, change(before), before.id, nowSeconds);
      await refuseClashes(site.id, car, trx);
      return car;
    });
    if (saved) await published(request, site.id, saved.before, saved.after);
    return saved?.after ?? null;
  }

  const refused = (error: unknown) => {
    if (error instanceof CarRefused) return { message: checkFields, fields: error.fields };
    throw error;
  };

  app.get(
    '/api/console/sites/:site/stock',
    {
      config: { console: 'stock.read', schemaError },
      schema: { params: siteParams, querystring: listQuery, response: { 200: z.looseObject({}), ...refusals } },
    },
    async (request, reply) => {
      const { q, status, type, shown, limit, cursor } = request.query;
      const after = cursor ? decodeCursor(cursor) : null;
      if (cursor && !after)
        return reply.code(400).send({ message: checkFields, fields: { cursor: 'That page of the list has gone; start again.' } });
      const page = await stockPage(
        ctx.db,
        siteOf(request).id,
        { text: q, status, carType: type, hidden: shown === undefined ? undefined : shown === 'no' },
        { after, limit },
      );
      const site = await siteConfigOf(request);
      return reply.send({
        cars: page.cars.map(listed),
        next_cursor: page.next ? encodeCursor(page.next) : null,
        // What a new car's form offers, and how the site writes prices.
        locale: site.locale,
        locations: site.locations.map((location) => ({ id: location.id, name: location.name })),
      });
    },
  );

  app.get(
    '/api/console/sites/:site/stock/:id',
    { config: { console: 'stock.read', schemaError }, schema: { params: carParams, response: { 200: z.looseObject({}), ...refusals } } },
    async (request, reply) => {
      const car = await carOfSite(siteOf(request).id, request.params.id);
      if (!car) return reply.code(404).send({ message: `This site has no car ${request.params.id}.` });
      return reply.send(carAnswer(await siteConfigOf(request), car));
    },
  );

  app.post(
    '/api/console/sites/:site/stock',
    {
      bodyLimit: 128 * 1024,
      config: { console: 'stock.write', schemaError },
      schema: { params: siteParams, body: newCarSchema, response: { 201: z.looseObject({}), ...refusals } },
    },
    async (request, reply) => {
      const site = await siteConfigOf(request);
      const nowSeconds = Math.floor(Date.now() / 1000);
      try {
        // Checked before an id is taken; a page address another car has gets the car's id on its end.
        const draft = carFromEdit(site, null, request.body, 0, nowSeconds);
        await refuseClashes(site.id, draft);
        const slugFree = !(await slugTaken(ctx.db, site.id, draft.slug, null));
        const car = await addCar(ctx.db, site.id, (id) => ({ ...draft, id, slug: slugFree ? draft.slug : `${draft.slug}-${id}` }));
        await published(request, site.id, null, car);
        return reply.code(201).send(carAnswer(site, car));
      } catch (error) {
        return reply.code(400).send(refused(error));
      }
    },
  );

  app.patch(
    '/api/console/sites/:site/stock/:id',
    {
      bodyLimit: 128 * 1024,
      config: { console: 'stock.write', schemaError },
      schema: { params: carParams, body: carChangeBodySchema, response: { 200: z.looseObject({}), ...refusals } },
    },
    async (request, reply) => {
      const site = await siteConfigOf(request);
      try {
        const car = await changed(request, site, request.params.id, () => request.body);
        if (!car) return reply.code(404).send({ message: `This site has no car ${request.params.id}.` });
        return reply.send(carAnswer(site, car));
      } catch (error) {
        return reply.code(400).send(refused(error));
      }
    },
  );

  app.put(
    '/api/console/sites/:site/stock/:id/photos',
    {
      bodyLimit: carPhotoMaxBytes,
      config: { console: 'stock.write', schemaError },
      schema: {
        params: carParams,
        body: z.instanceof(Buffer, { error: 'Upload a JPEG, PNG or WebP photo.' }),
        response: { 200: z.looseObject({}), ...refusals },
      },
    },
    async (request, reply) => {
      const site = await siteConfigOf(request);
      const before = await carOfSite(site.id, request.params.id);
      if (!before) return reply.code(404).send({ message: `This site has no car ${request.params.id}.` });
      if (before.images.length >= maxPhotos)
        return reply.code(400).send({ message: checkFields, fields: { photos: `A car has at most ${maxPhotos} photos.` } });
      let photo;
      try {
        photo = await processCarPhoto(request.body, site.id, Date.now());
      } catch (error) {
        if (error instanceof ImageRefused) return reply.code(400).send({ message: error.message, fields: { photos: error.message } });
        throw error;
      }
      await saveSiteImage(ctx.db, photo);
      const url = carPhotoUrl(photo.hash);
      try {
        // Added to the car as it is now, after the photo was processed (which takes a while), not as it was before.
        const car = await changed(request, site, before.id, (now) => ({
          photos: now.images.includes(url) ? now.images : [...now.images, url],
        }));
        if (!car) return reply.code(404).send({ message: `This site has no car ${request.params.id}.` });
        return reply.send(carAnswer(site, car));
      } catch (error) {
        return reply.code(400).send(refused(error));
      }
    },
  );
}
