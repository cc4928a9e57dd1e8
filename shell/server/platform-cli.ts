import { loadConfig } from './config';
import { migrateToLatest, openDatabase, type PlatformDb } from './db/database';
import { findSiteIdBySlug, listSiteSlugs, loadSiteConfig, setSiteRemote } from './db/site-store';
import { listLeads } from './db/lead-store';
import { RemoteRegistry, isRemoteName } from './remotes/remote-registry';
import { remoteNames } from '@dealer/contracts/remote-modules';

const usage = `Usage:
  platform sites                                       list the sites and their remotes
  platform versions <remote>                           list the published versions of a remote
  platform remote <site|all> <remote> <version|latest|off|on>
                                                       pin a site to a version, follow the latest, or switch the remote off/on
  platform leads <site>                                print a site's leads as JSON lines
Remotes: ${remoteNames.join(', ')}`;

export class UsageError extends Error {}

async function siteIds(db: PlatformDb, site: string): Promise<number[]> {
  if (site === 'all') return (await listSiteSlugs(db)).map((row) => row.id);
  const id = await findSiteIdBySlug(db, site);
  if (id === null) throw new UsageError(`No site with slug "${site}". Run "platform sites" to list them.`);
  return [id];
}

export async function runPlatformCli(args: string[], out: (line: string) => void = console.log): Promise<void> {
  const config = loadConfig();
  const registry = new RemoteRegistry(config.remotesDir);
  const { db, engine } = openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  try {
    await migrateToLatest(db, engine);
    const [command, ...rest] = args;
    switch (command) {
      case 'sites': {
        for (const row of await listSiteSlugs(db)) {
          const site = await loadSiteConfig(db, row.id);
          const remotes = site!.remotes.map((r) => `${r.name}:${r.enabled ? (r.version ?? 'latest') : 'off'}`).join(' ');
          out(`${row.slug}\t${row.domain_name ?? '-'}\t${remotes}`);
        }
        return;
      }
      case 'versions': {
        const [remote] = rest;
        if (!remote || !isRemoteName(remote)) throw new UsageError(usage);
        const latest = registry.latest(remote);
        for (const version of registry.versions(remote)) out(`${version}${version === latest ? '\t(latest)' : ''}`);
        return;
      }
      case 'remote': {
        const [site, remote, target] = rest;
        if (!site || !remote || !target) throw new UsageError(usage);
        if (!isRemoteName(remote)) throw new UsageError(`Unknown remote "${remote}". Remotes: ${remoteNames.join(', ')}`);
        let change: { enabled: boolean } | { version: string | null };
        if (target === 'off' || target === 'on') change = { enabled: target === 'on' };
        else if (target === 'latest') change = { version: null };
        else if (registry.hasVersion(remote, target)) change = { version: target };
        else throw new UsageError(`${remote} has no published version "${target}". Published: ${registry.versions(remote).join(', ') || 'none'}`);
        const ids = await siteIds(db, site);
        for (const id of ids) await setSiteRemote(db, id, remote, change);
        out(`${remote} → ${target} on ${site === 'all' ? `all ${ids.length} sites` : site}`);
        return;
      }
      case 'leads': {
        const [site] = rest;
        if (!site) throw new UsageError(usage);
        const [id] = await siteIds(db, site);
        for (const lead of await listLeads(db, id!)) out(JSON.stringify(lead));
        return;
      }
      default:
        throw new UsageError(usage);
    }
  } finally {
    await db.destroy();
  }
}
