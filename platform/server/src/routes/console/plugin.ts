import type { FastifyInstance } from 'fastify';
import type { PlatformContext } from '../../platform-context';
import { consoleAuditRoutes } from './audit';
import { consoleAuthRoutes } from './auth';
import { guardConsoleRoutes } from './console-access';
import { consoleLeadEventRoutes } from './lead-events';
import { consoleLeadRoutes } from './leads';
import { consoleRemoteRoutes } from './remotes';
import { consoleSiteRemoteRoutes } from './site-remotes';
import { consoleUserRoutes } from './users';
import { consoleChatRoutes } from './chats';
import { consoleReservationRoutes } from './reservations';
import { consoleSettingsRoutes } from './settings';
import { consoleSiteLogoRoutes } from './site-logo';
import { consoleSiteRoutes } from './sites';
import { consoleStockRoutes } from './stock';
import { consoleContentRoutes } from './content';
import { uploadTypes } from '../../images/site-images';
import { consoleDashboardRoutes } from './dashboard';
import { consoleFeedRoutes, feedUploadTypes } from './feed';

/**
 * The dealer console's API, `/api/console/*`, answered on the console's host only. Every route
 * says in `config.console` who may call it; console-access.ts checks that against the policy table
 * (console/console-policy.ts) before the route runs.
 */
export async function consoleRoutes(scope: FastifyInstance, ctx: PlatformContext) {
  const requests = guardConsoleRoutes(scope, ctx);
  // Pictures (a logo, a car's photo) and a feed's CSV are sent as they are. Up to 1 MB, like every
  // other body: the upload routes say how large they take (logo 2 MB, photo 15 MB, feed 20 MB).
  scope.addContentTypeParser([...uploadTypes], { parseAs: 'buffer', bodyLimit: 1_048_576 }, (_request, body, done) => done(null, body));
  scope.addContentTypeParser(feedUploadTypes, { parseAs: 'buffer', bodyLimit: 1_048_576 }, (_request, body, done) => done(null, body));
  consoleAuthRoutes(scope, ctx, requests);
  consoleLeadRoutes(scope, ctx, requests);
  consoleLeadEventRoutes(scope, ctx, requests);
  consoleAuditRoutes(scope, ctx, requests);
  consoleRemoteRoutes(scope, ctx, requests);
  consoleSiteRemoteRoutes(scope, ctx, requests);
  consoleUserRoutes(scope, ctx, requests);
  consoleChatRoutes(scope, ctx, requests);
  consoleReservationRoutes(scope, ctx, requests);
  consoleSettingsRoutes(scope, ctx, requests);
  consoleSiteLogoRoutes(scope, ctx, requests);
  consoleSiteRoutes(scope, ctx, requests);
  consoleStockRoutes(scope, ctx, requests);
  consoleContentRoutes(scope, ctx, requests);
  consoleFeedRoutes(scope, ctx, requests);
  consoleDashboardRoutes(scope, ctx, requests);
}
