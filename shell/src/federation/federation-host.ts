// The shell's Module Federation host, started when the page loads its first remote. The shell is
// not a federation build: its own code imports React, the router and the store directly, and a
// page that shows no remote (the home page before its chat) never downloads the runtime (~25 KB
// gz). This module, a chunk of its own, hands the runtime the site's remotes and the shell's module
// instances as the shared singletons, with the versions and rules of @dealer/build's
// sharedSingletons (injected at build time as __SHARED_SINGLETONS__).
import * as runtimeCore from '@module-federation/runtime/core';
import { init, loadRemote, registerRemotes, type ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import { RetryPlugin } from '@module-federation/retry-plugin';
import { federationName, type RemoteName } from '@dealer/contracts/remote-modules';
import { errorLoadPlugin } from './error-load-plugin';
import { lazySharedModules, sharedModules } from './shared-modules';

type SingletonRule = { singleton: true; strictVersion: true; requiredVersion: string; version: string };

/** The rule for a module: its own entry, or that of the longest `prefix/` entry it falls under. */
export function singletonRule(rules: Record<string, SingletonRule>, name: string): SingletonRule | undefined {
  if (rules[name]) return rules[name];
  const prefix = Object.keys(rules)
    .filter((key) => key.endsWith('/') && name.startsWith(key))
    .sort((a, b) => b.length - a.length)[0];
  return prefix ? rules[prefix] : undefined;
}

type Provided = { version: string; shareConfig: Omit<SingletonRule, 'version'> } & (
  { lib: () => unknown } | { get: () => Promise<() => unknown> }
);

/**
 * What the shell provides: its module instances (and the design system's stylesheet, already in
 * the page's head), and the modules it loads when a remote first asks for them.
 */
export function providedShared(rules: Record<string, SingletonRule>) {
  const shared: Record<string, Provided> = {};
  const rule = (name: string) => {
    const found = singletonRule(rules, name);
    if (!found) throw new Error(`${name} is provided to remotes but is not in sharedSingletons`);
    const { version, ...shareConfig } = found;
    return { version, shareConfig };
  };
  for (const [name, module] of Object.entries({ ...sharedModules, '@dealer/ui/styles.css': {} }))
    shared[name] = { ...rule(name), lib: () => module };
  for (const [name, load] of Object.entries(lazySharedModules))
    shared[name] = { ...rule(name), get: () => load().then((module) => () => module) };
  return shared;
}

export type FederationHost = {
  load<T>(id: string): Promise<T | null>;
  /** Drops a failed entry load the runtime keeps, so a retry asks the network again. */
  forget(remote: RemoteName, entry: string): void;
};

/** Starts the runtime with the site's remotes at the entries (remoteEntry.js) of the versions its config pins. */
export function startFederationHost(remotes: Map<RemoteName, string>): FederationHost {
  // Remote entries are built without the runtime core (`externalRuntime`): they read this global.
  const global = globalThis as { _FEDERATION_RUNTIME_CORE?: unknown; _FEDERATION_RUNTIME_CORE_FROM?: unknown };
  if (!global._FEDERATION_RUNTIME_CORE) {
    global._FEDERATION_RUNTIME_CORE = runtimeCore;
    global._FEDERATION_RUNTIME_CORE_FROM = { name: 'shell', version: 'host' };
  }
  const plugins: ModuleFederationRuntimePlugin[] = [
    RetryPlugin({ fetch: { retryTimes: 2, retryDelay: 500 }, script: { retryTimes: 2, retryDelay: 500 } }) as ModuleFederationRuntimePlugin,
    errorLoadPlugin(),
  ];
  init({
    name: 'shell',
    remotes: [...remotes].map(([name, entry]) => ({ name: federationName(name), entry })),
    shared: providedShared(__SHARED_SINGLETONS__),
    shareStrategy: 'loaded-first',
    plugins,
  });
  return {
    load: (id) => loadRemote(id),
    forget: (remote, entry) => registerRemotes([{ name: federationName(remote), entry }], { force: true }),
  };
}
