/**
 * Who may do what in the dealer console (issue 23): one table of action × role, consulted by every
 * console route through its `config.console` (routes/console/console-access.ts) and never decided
 * inside a handler. A role grants an action on every site (`any`), on its own sites (`own`: the
 * site a site admin or staff member holds the role on, the sites of a group admin's dealer group),
 * or not at all.
 */
import type { ConsoleRole, ConsoleUser } from '@dealer/db/console-account-store';
import type { ConsoleRoleName } from '@dealer/db/schema';

export const consoleActions = [
  'dashboard.read',
  'leads.read',
  'leads.update',
  'leads.export',
  'chats.read',
  'chats.reply',
  'reservations.read',
  'reservations.release',
  'settings.read',
  'settings.write',
  'remotes.read',
  'remotes.write',
  'users.read',
  'users.write',
  'audit.read',
  /** The site's cars (issue 24): staff read them, site admins change them. */
  'stock.read',
  'stock.write',
  /** The site's pages, news, offers and jobs (issue 24): staff read them, site admins write and publish them. */
  'content.read',
  'content.write',
  /** Opening a new dealer site (issue 24): asked of the platform, not of a site. */
  'sites.create',
] as const;
export type ConsoleAction = (typeof consoleActions)[number];

export type Grant = 'any' | 'own' | 'none';

const everything = (grant: Grant) => Object.fromEntries(consoleActions.map((action) => [action, grant])) as Record<ConsoleAction, Grant>;

/** Staff: the site's leads, chats and reservations and its dashboard; settings read-only; no remotes, users or audit log. */
const staff: Record<ConsoleAction, Grant> = {
  ...everything('none'),
  'dashboard.read': 'own',
  'leads.read': 'own',
  'leads.update': 'own',
  'leads.export': 'own',
  'chats.read': 'own',
  'chats.reply': 'own',
  'reservations.read': 'own',
  'reservations.release': 'own',
  'settings.read': 'own',
  'stock.read': 'own',
  'content.read': 'own',
};

export const consolePolicy: Record<ConsoleRoleName, Record<ConsoleAction, Grant>> = {
  operator: everything('any'),
  group_admin: { ...everything('own'), 'sites.create': 'none' },
  site_admin: { ...everything('own'), 'sites.create': 'none' },
  staff,
};

/** Whether the user may take an action asked of the platform rather than one site (opening a site): only a role granting it on every site. */
export const mayActOnPlatform = (user: Pick<ConsoleUser, 'roles'>, action: ConsoleAction) =>
  user.roles.some((role) => consolePolicy[role.role][action] === 'any');

/** The site an action is asked on: its id and its dealer group. */
export type PolicySite = { id: number; group: string | null };

const holdsOn = (role: ConsoleRole, site: PolicySite) =>
  role.siteId === site.id || (role.role === 'group_admin' && role.group !== null && role.group === site.group);

/** Whether one role allows the action on the site. */
export function roleAllows(role: ConsoleRole, action: ConsoleAction, site: PolicySite): boolean {
  const grant = consolePolicy[role.role][action];
  return grant === 'any' || (grant === 'own' && holdsOn(role, site));
}

/** Whether any of the user's roles allows the action on the site. */
export const mayAct = (user: Pick<ConsoleUser, 'roles'>, action: ConsoleAction, site: PolicySite) =>
  user.roles.some((role) => roleAllows(role, action, site));

/** The actions the user may take on the site (the console shows only these screens and buttons). */
export const actionsOn = (user: Pick<ConsoleUser, 'roles'>, site: PolicySite) =>
  consoleActions.filter((action) => mayAct(user, action, site));
