import type { PlatformDb } from '@dealer/db/database';
import { consoleSites, consoleUserById, ensureConsoleUser, grantConsoleRole, type ConsoleRole } from '@dealer/db/console-account-store';
import { findSiteIdBySlug } from '@dealer/db/site-store';
import { consoleRoleNames, type ConsoleRoleName } from '@dealer/db/schema';

export const consoleUserUsage = `  platform console-user add <email> operator          a dealer console user who runs every site
  platform console-user add <email> group-admin <group>   ... every site of one dealer group
  platform console-user add <email> site-admin <site>     ... one site: settings, users, remotes, leads
  platform console-user add <email> staff <site>          ... one site's leads, chats and reservations
  platform console-user list                           the console's users and their roles`;

/** `platform console-user …`: the first operator, and any user by hand. Throws a message for the usage. */
export async function consoleUserCommand(db: PlatformDb, words: string[], out: (line: string) => void, fail: (message: string) => never) {
  const [action, email, roleWord, scope, ...extra] = words;
  if (action === 'list' && !email) {
    const users = await db.selectFrom('console_users').select('id').orderBy('email').execute();
    const sites = new Map((await consoleSites(db)).map((site) => [site.id, site.slug]));
    for (const row of users) {
      const user = (await consoleUserById(db, Number(row.id)))!;
      const roles = user.roles.map(
        (r) => `${r.role}${r.siteId !== null ? `:${sites.get(r.siteId)}` : r.group !== null ? `:${r.group}` : ''}`,
      );
      out(`${user.email}\t${roles.join(' ') || '(no role)'}`);
    }
    return;
  }
  if (action !== 'add' || !email || !roleWord || extra.length) fail(consoleUserUsage);
  const role = roleWord!.replace('-', '_') as ConsoleRoleName;
  if (!consoleRoleNames.includes(role)) fail(`Unknown role "${roleWord}". Roles: operator, group-admin, site-admin, staff.`);
  if (!/^[^\s@]+@[^\s@]+$/.test(email!)) fail(`"${email}" is not an e-mail address.`);
  let grant: ConsoleRole;
  if (role === 'operator') {
    if (scope) fail('An operator runs every site: name no site or group.');
    grant = { role, siteId: null, group: null };
  } else if (role === 'group_admin') {
    if (!scope) fail('Name the dealer group: platform console-user add <email> group-admin <group>.');
    if (!(await consoleSites(db)).some((site) => site.group === scope)) fail(`No site belongs to a dealer group "${scope}".`);
    grant = { role, siteId: null, group: scope! };
  } else {
    if (!scope) fail(`Name the site: platform console-user add <email> ${roleWord} <site>.`);
    const siteId = await findSiteIdBySlug(db, scope!);
    if (siteId === null) fail(`No site with slug "${scope}". Run "platform sites" to list them.`);
    grant = { role, siteId: siteId!, group: null };
  }
  const now = Date.now();
  const userId = await ensureConsoleUser(db, email!, null, now);
  await grantConsoleRole(db, userId, grant, now);
  out(
    `${email!.toLowerCase()} is ${roleWord}${scope ? ` of ${scope}` : ''}. They sign in at the console with a code sent to that address.`,
  );
}
