import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { carSchema } from '@dealer/contracts/car';
import { noContentSchema, refusalSchema } from '../http/zod-schemas';
import { z } from 'zod';
import {
  deleteSearch,
  insertSearch,
  maxSavedCars,
  maxSavedSearches,
  savedCarsOf,
  saveCars,
  searchesOf,
  siteCarExists,
  unsaveCar,
  watchlistOf,
  type SavedSearch,
} from '../accounts/account-store';
import { parseSavedSearchFilter } from '../accounts/garage-alerts';
import { addressOfShopper } from '../accounts/account-store';
import { isOptedOut, optIn } from '@dealer/db/mail-opt-out-store';
import type { PlatformContext } from '../platform-context';
import type { AccountRequests } from './account-requests';
import { checkFieldsMessage, fieldErrors } from './auth';

/** A saved search is a name, a page address, a filter and a few words: far under this. */
const searchBodyLimit = 32 * 1024;
const emptyBodyLimit = 1024;
/** The filter as the browser searched with it: the demo sites' largest is 2.5 KB. */
export const maxSavedFilterChars = 16 * 1024;
export const maxSearchNameChars = 100;
export const maxSearchPathChars = 2000;

const controlCharacters = /\p{Cc}/u;

const filterSchema = z.union(
  [
    z.string().max(maxSavedFilterChars),
    z.array(z.union([z.string().max(maxSavedFilterChars), z.array(z.string().max(maxSavedFilterChars)).max(100)])).max(100),
  ],
  { error: 'filter must be a Meilisearch filter: an expression, or a list of expressions and lists of expressions.' },
);

const searchBodySchema = z.object({
  name: z
    .string({ error: 'Please give the search a name.' })
    .trim()
    .min(1, 'Please give the search a name.')
    .max(maxSearchNameChars, `A search's name is at most ${maxSearchNameChars} characters.`)
    .refine((name) => !controlCharacters.test(name), 'A search’s name is one line of text.'),
  path: z
    .string({ error: 'path must be the search page’s address on this site, e.g. /search/used-cars?make=Toyota.' })
    .trim()
    .max(maxSearchPathChars, `path is at most ${maxSearchPathChars} characters.`)
    // The site's own page: a path with its query, never another site (`//host`, `/\host`) nor a script.
    .regex(/^\/(?![/\\])[^\s\\\p{Cc}]*$/u, 'path must be the search page’s address on this site, e.g. /search/used-cars?make=Toyota.'),
  filter: filterSchema
    .refine((filter) => JSON.stringify(filter).length <= maxSavedFilterChars, `filter is at most ${maxSavedFilterChars / 1024} KB.`)
    .optional(),
  q: z.string({ error: 'q must be the words searched for.' }).trim().max(200, 'q is at most 200 characters.').nullable().optional(),
});

/** A positive whole-number id in the path, or a 400 naming what it is the id of. */
const idParam = (what: string) =>
  z
    .string()
    .regex(/^\d{1,15}$/, `The ${what} id must be a whole number.`)
    .transform(Number)
    .refine((id) => id > 0, `The ${what} id must be a whole number.`);

const searchView = (search: SavedSearch) => ({ ...search, alerts: search.filter !== null });

const savedSearchSchema = z.object({
  id: z.number(),
  name: z.string(),
  path: z.string(),
  filter: z.union([z.string(), z.array(z.union([z.string(), z.array(z.string())]))]).nullable(),
  q: z.string().nullable(),
  alerts: z.boolean(),
});
const watchlistSchema = z.object({ watchlist: z.array(z.number()) });
const refusals = { '4xx': refusalSchema };

/**
 * The garage of the signed-in shopper (401 otherwise; 404 on a site without a garage):
 * - `GET /api/garage`: `{ saved, searches }`, saved cars with their data as it is now (a sold car
 *   says so itself; `car` is null once the dealer no longer shows it) and saved searches;
 * - `PUT` / `DELETE /api/garage/saved/:carId`: saves or removes one of the site's cars, answering
 *   `{ watchlist }`; another site's car is a 404, a full garage (200 cars) a 409;
 * - `POST /api/garage/searches` `{ name, path, filter?, q? }`: 201 `{ search }`, at most 20;
 * - `DELETE /api/garage/searches/:id`: 204;
 * - `DELETE /api/garage/unsubscribe`: alert e-mails again for the signed-in shopper's address (`alerts_stopped` in the garage says whether they are off).
 */
export async function garageRoutes(scope: FastifyInstance, ctx: PlatformContext, requests: AccountRequests) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const { signedIn, shopper: shopperOf } = requests;
  const { db } = ctx;
  const site = { site: 'required' } as const;

  app.get(
    '/api/garage',
    {
      config: site,
      preValidation: signedIn,
      schema: {
        response: {
          200: z.object({
            saved: z.array(z.looseObject({ car_id: z.number(), car: carSchema.nullable() })),
            searches: z.array(savedSearchSchema),
            alerts_stopped: z.boolean(),
          }),
          ...refusals,
        },
      },
    },
    async (request, reply) => {
      const shopper = shopperOf(request);
      const address = await addressOfShopper(db, shopper.id);
      const [saved, searches, stopped] = await Promise.all([
        savedCarsOf(db, shopper),
        searchesOf(db, shopper),
        address ? isOptedOut(db, request.site.id, address.email) : false,
      ]);
      return reply.send({ saved, searches: searches.map(searchView), alerts_stopped: stopped });
    },
  );

  // The id is judged before the session: a malformed address is a 400 whoever asks.
  const carRoute = {
    bodyLimit: emptyBodyLimit,
    config: site,
    preHandler: signedIn,
    schema: { params: z.object({ carId: idParam('car') }), response: { 200: watchlistSchema, ...refusals } },
  };

  app.put('/api/garage/saved/:carId', carRoute, async (request, reply) => {
    const { carId } = request.params;
    const shopper = shopperOf(request);
    if (!(await siteCarExists(db, request.site.id, carId)))
      return reply.code(404).send({ message: `There is no car ${carId} on this site.` });
    const outcome = await db.transaction().execute((trx) => saveCars(trx, shopper, [carId], Date.now()));
    if (outcome.full)
      return reply.code(409).send({ message: `Your garage holds at most ${maxSavedCars} cars: remove one to save another.` });
    return reply.send({ watchlist: await watchlistOf(db, shopper) });
  });

  app.delete('/api/garage/saved/:carId', carRoute, async (request, reply) => {
    const shopper = shopperOf(request);
    await unsaveCar(db, shopper, request.params.carId);
    return reply.send({ watchlist: await watchlistOf(db, shopper) });
  });

  // The shopper signed in with a code sent to the address, so they may take back an opt-out of it
  // (made with the unsubscribe link or by anyone who typed the address on /unsubscribe).
  app.delete(
    '/api/garage/unsubscribe',
    {
      bodyLimit: emptyBodyLimit,
      config: site,
      preHandler: signedIn,
      schema: { response: { 200: z.object({ alerts_stopped: z.boolean() }), ...refusals } },
    },
    async (request, reply) => {
      const address = await addressOfShopper(db, shopperOf(request).id);
      if (address) await optIn(db, request.site.id, address.email);
      return reply.send({ alerts_stopped: false });
    },
  );

  app.post(
    '/api/garage/searches',
    {
      bodyLimit: searchBodyLimit,
      // The session before the body: a shopper signed out is told so, whatever was sent.
      preValidation: signedIn,
      config: { ...site, schemaError: (error) => ({ status: 400, body: { message: checkFieldsMessage, fields: fieldErrors(error) } }) },
      schema: { body: searchBodySchema, response: { 201: z.object({ search: savedSearchSchema }), ...refusals } },
    },
    async (request, reply) => {
      const shopper = shopperOf(request);
      const { name, path, filter, q } = request.body;
      if (filter !== undefined) {
        const parsed = parseSavedSearchFilter(filter);
        if (!parsed.ok) return reply.code(400).send({ message: checkFieldsMessage, fields: { filter: parsed.message } });
      }
      const search = await insertSearch(db, shopper, { name, path, filter: filter ?? null, q: q || null }, Date.now());
      if (!search) return reply.code(409).send({ message: `You can keep ${maxSavedSearches} saved searches: delete one to save another.` });
      return reply.code(201).send({ search: searchView(search) });
    },
  );

  app.delete(
    '/api/garage/searches/:id',
    {
      bodyLimit: emptyBodyLimit,
      config: site,
      preHandler: signedIn,
      schema: { params: z.object({ id: idParam('saved search') }), response: { 204: noContentSchema, ...refusals } },
    },
    async (request, reply) => {
      const { id } = request.params;
      if (!(await deleteSearch(db, shopperOf(request), id)))
        return reply.code(404).send({ message: `There is no saved search ${id} in your garage.` });
      return reply.code(204).send();
    },
  );
}
