import type { PlatformDb } from '@dealer/db/database';
import { ensureConsoleUser, grantConsoleRole } from '@dealer/db/console-account-store';
import type { SiteConfig } from '@dealer/contracts/site';

/** The dealer console's demo users: an operator, a group admin of each dealer group, a site admin and a staff member of each site. */
export function demoConsoleUsers(sites: readonly Pick<SiteConfig, 'id' | 'slug' | 'dealership_group'>[]) {
  const users: {
    email: string;
    name: string;
    role: 'operator' | 'group_admin' | 'site_admin' | 'staff';
    siteId: number | null;
    group: string | null;
  }[] = [{ email: 'operator@dealer-platform.localhost', name: 'Olivia Operator', role: 'operator', siteId: null, group: null }];
  const groups = [...new Set(sites.map((site) => site.dealership_group).filter((group): group is string => group !== null))];
  for (const group of groups) {
    const slug = group.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    users.push({ email: `group-admin@${slug}.localhost`, name: `${group} admin`, role: 'group_admin', siteId: null, group });
  }
  for (const site of sites) {
    users.push({ email: `site-admin@${site.slug}.localhost`, name: 'Sam Site-Admin', role: 'site_admin', siteId: site.id, group: null });
    users.push({ email: `staff@${site.slug}.localhost`, name: 'Stacey Staff', role: 'staff', siteId: site.id, group: null });
  }
  return users;
}

export async function insertDemoConsoleUsers(
  db: PlatformDb,
  sites: readonly Pick<SiteConfig, 'id' | 'slug' | 'dealership_group'>[],
  now = Date.now(),
) {
  for (const user of demoConsoleUsers(sites)) {
    const id = await ensureConsoleUser(db, user.email, user.name, now);
    await grantConsoleRole(db, id, { role: user.role, siteId: user.siteId, group: user.group }, now);
  }
}
