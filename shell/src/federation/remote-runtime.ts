import { loadRemote, registerPlugins, registerRemotes } from '@module-federation/enhanced/runtime';
import { RetryPlugin } from '@module-federation/retry-plugin';
import { federationName, remoteOfModule, type ExposedModule, type RemoteName } from '@dealer/contracts/remote-modules';
import type { PublicSiteConfig } from '@dealer/contracts/site';
import { errorLoadPlugin } from './error-load-plugin';

/** A remote that has not answered by then is treated as down (its area shows a fallback). */
export const remoteLoadTimeoutMs = 10_000;

let enabled = new Set<RemoteName>();
let entries = new Map<RemoteName, string>();

/** Registers the site's remotes, at the versions its config pins, when the page starts. */
export function startRemoteRuntime(site: Pick<PublicSiteConfig, 'remotes'>) {
  registerPlugins([
    RetryPlugin({ fetch: { retryTimes: 2, retryDelay: 500 }, script: { retryTimes: 2, retryDelay: 500 } }),
    errorLoadPlugin(),
  ]);
  registerRemotes(site.remotes.map((remote) => ({ name: federationName(remote.name), entry: remote.manifestUrl })));
  enabled = new Set(site.remotes.map((remote) => remote.name));
  entries = new Map(site.remotes.map((remote) => [remote.name, remote.manifestUrl]));
}

/**
 * The runtime keeps a failed manifest request; registering the remote again with `force`
 * drops it, so a retry after a failure really asks the network again.
 */
export function forgetFailedRemote(module: ExposedModule) {
  const remote = remoteOfModule(module);
  const entry = entries.get(remote);
  if (entry) registerRemotes([{ name: federationName(remote), entry }], { force: true });
}

export const isRemoteEnabled = (remote: RemoteName) => enabled.has(remote);
export const isModuleEnabled = (module: ExposedModule) => enabled.has(remoteOfModule(module));

/** Loads an exposed module with a time limit. Each call is a fresh attempt (failures are not cached). */
export async function loadRemoteModule<T>(module: ExposedModule): Promise<T> {
  const remote = remoteOfModule(module);
  const id = `${federationName(remote)}/${module.slice(remote.length + 1)}`;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${module} did not load within ${remoteLoadTimeoutMs} ms`)), remoteLoadTimeoutMs);
  });
  try {
    const loaded = await Promise.race([loadRemote<T>(id), timeout]);
    if (!loaded) throw new Error(`${module} loaded empty`);
    return loaded;
  } finally {
    clearTimeout(timer);
  }
}
