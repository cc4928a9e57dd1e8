import { federationName, remoteOfModule, type ExposedModule, type RemoteName, type SlotName } from '@dealer/contracts/remote-modules';
import type { PublicSiteConfig } from '@dealer/contracts/site';
import type { FederationHost } from './federation-host';
import { lazySharedModules } from './shared-modules';
import { nextTask } from '../boot/scheduling';
import { RemoteLoadError } from './remote-load-error';
import { reportRemoteFailure } from './report-failure';

/** A remote that has not answered by then is treated as down (its area shows a fallback). */
export const remoteLoadTimeoutMs = 10_000;

let enabled = new Set<RemoteName>();
let entries = new Map<RemoteName, string>();
let slotFills = new Map<SlotName, ExposedModule[]>();

let host: Promise<FederationHost> | null = null;

/**
 * The site's remotes, at the versions its config pins, when the page starts. Nothing loads yet:
 * the federation runtime arrives with the first remote the page needs (federation-host.ts).
 */
export function startRemoteRuntime(site: Pick<PublicSiteConfig, 'remotes'>) {
  host = null;
  enableSiteRemotes(site);
}

/** The federation runtime, started on first use; should its code not arrive, the next use asks again. */
function federationHost(): Promise<FederationHost> {
  const remotes = entries;
  host ??= import(/* webpackChunkName: "federation", webpackPrefetch: true */ './federation-host').then(
    ({ startFederationHost }) => startFederationHost(remotes),
    (error: unknown) => {
      host = null;
      throw error;
    },
  );
  return host;
}

/**
 * Starts fetching the federation runtime and the platform API without loading a remote: a page
 * whose route a remote owns needs both, and they then arrive beside React, not after it.
 */
export function warmFederationHost() {
  federationHost().catch(() => undefined);
  // One chunk, run a module at a time with a task between: RTK Query's core, its React hooks, then the
  // platform API. Run together they were one ~12 ms task (~50 ms on a phone) while the page hydrated.
  const load = (name: string) => () => lazySharedModules[name]?.();
  Promise.resolve()
    .then(load('@reduxjs/toolkit/query'))
    .then(nextTask)
    .then(load('@reduxjs/toolkit/query/react'))
    .then(nextTask)
    .then(load('@dealer/state/platform-api'))
    .catch(() => undefined);
}

/** Which remotes (and slot fillers) the page has, without loading anything: also what the server render needs. */
export function enableSiteRemotes(site: Pick<PublicSiteConfig, 'remotes'>) {
  enabled = new Set(site.remotes.map((remote) => remote.name));
  entries = new Map(site.remotes.map((remote) => [remote.name, remote.entryUrl]));
  slotFills = new Map();
  for (const remote of site.remotes) {
    for (const [slot, modules] of Object.entries(remote.slots ?? {}) as [SlotName, string[]][]) {
      // A module the shell's contracts do not know yet (a newer remote) still loads by name.
      slotFills.set(slot, [...(slotFills.get(slot) ?? []), ...modules.map((expose) => `${remote.name}/${expose}` as ExposedModule)]);
    }
  }
}

/** The modules the site's enabled remotes put in a named slot, in the order of the site's remotes. */
export const slotFillers = (slot: SlotName): ExposedModule[] => slotFills.get(slot) ?? [];

/**
 * The runtime keeps a failed entry load; registering the remote again with `force`
 * drops it, so a retry after a failure really asks the network again.
 */
export function forgetFailedRemote(module: ExposedModule) {
  const remote = remoteOfModule(module);
  const entry = entries.get(remote);
  if (entry && host)
    void host.then(
      (started) => started.forget(remote, entry),
      () => undefined,
    );
}

export const isRemoteEnabled = (remote: RemoteName) => enabled.has(remote);
export const isModuleEnabled = (module: ExposedModule) => enabled.has(remoteOfModule(module));

/** Failures the runtime plugin does not see (it reports fetch and script errors itself). */
function reported(error: RemoteLoadError): RemoteLoadError {
  reportRemoteFailure(error.remote, String(error.module), error.message);
  return error;
}

/** Loads an exposed module with a time limit. Each call is a fresh attempt (failures are not cached). */
export async function loadRemoteModule<T>(module: ExposedModule): Promise<T> {
  const remote = remoteOfModule(module);
  const id = `${federationName(remote)}/${module.slice(remote.length + 1)}`;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(reported(new RemoteLoadError(remote, module, 'timeout'))), remoteLoadTimeoutMs);
  });
  try {
    const loaded = await Promise.race([
      federationHost()
        .then((started) => started.load<T>(id))
        .catch((error: unknown) => {
          throw error instanceof RemoteLoadError ? error : new RemoteLoadError(remote, module, 'network', { cause: error });
        }),
      timeout,
    ]);
    if (!loaded) throw reported(new RemoteLoadError(remote, module, 'empty'));
    return loaded;
  } finally {
    clearTimeout(timer);
  }
}
