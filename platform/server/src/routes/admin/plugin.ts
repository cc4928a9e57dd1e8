import type { FastifyInstance } from 'fastify';
import type { PlatformContext } from '../../platform-context';
import { guardAdminRoutes } from './admin-access';
import { adminBookingRoutes } from './bookings';
import { adminCarRoutes } from './cars';
import { adminChatRoutes } from './chats';
import { adminDealerKeyRoutes } from './dealer-keys';
import { adminEventRoutes } from './events';
import { adminLeadRoutes } from './leads';
import { adminReservationRoutes } from './reservations';

/**
 * Dealer and operator access, `/api/admin/*`. The platform admin key opens every route; a dealer
 * key opens the routes of its own site only (another site's listing is a 403, another site's lead
 * a 404, as if it did not exist), and none of the platform's own (car changes, dealer keys). Each
 * route says which in `config.adminAccess`; the key is checked, for every route in this one scope,
 * before the request's parameters are judged.
 */
export async function adminRoutes(scope: FastifyInstance, ctx: PlatformContext) {
  const requests = guardAdminRoutes(scope, ctx.db, ctx.config.adminKey);
  adminLeadRoutes(scope, ctx, requests);
  adminBookingRoutes(scope, ctx, requests);
  adminEventRoutes(scope, ctx, requests);
  adminReservationRoutes(scope, ctx, ctx.checkout, requests);
  adminChatRoutes(scope, ctx.chat, requests);
  adminDealerKeyRoutes(scope, ctx);
  adminCarRoutes(scope, ctx);
}
