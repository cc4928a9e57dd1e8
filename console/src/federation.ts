// The console's Module Federation host: like the shell's (shell/src/federation/federation-host.ts),
// it hands the runtime its own React as the shared singleton, with @dealer/build's rules
// (__SHARED_SINGLETONS__), and loads a dealer screen from the remote entry of the version the
// site runs (GET /api/console/sites/:site/remotes).
import * as runtimeCore from '@module-federation/runtime/core';
import { createInstance } from '@module-federation/enhanced/runtime';
import * as React from 'react';
import * as jsxRuntime from 'react/jsx-runtime';
import * as ReactDOM from 'react-dom';
import type { DealerScreen } from '@dealer/contracts/remote-modules';

type SingletonRule = { singleton: true; strictVersion: true; requiredVersion: string; version: string };

function shared(name: string, module: unknown) {
  const rules = __SHARED_SINGLETONS__ as Record<string, SingletonRule>;
  const rule = rules[name] ?? rules[`${name.split('/')[0]}/`];
  if (!rule) throw new Error(`${name} is not a shared singleton`);
  const { version, ...shareConfig } = rule;
  return { version, shareConfig, lib: () => module };
}

const global = globalThis as { _FEDERATION_RUNTIME_CORE?: unknown; _FEDERATION_RUNTIME_CORE_FROM?: unknown };

/** Loads one dealer screen of a site, from the remote entry the site runs; one runtime instance per site and entry. */
export async function loadDealerScreen<T>(screen: DealerScreen, remotes: { name: string; entry: string }[]): Promise<T> {
  if (!global._FEDERATION_RUNTIME_CORE) {
    global._FEDERATION_RUNTIME_CORE = runtimeCore;
    global._FEDERATION_RUNTIME_CORE_FROM = { name: 'console', version: 'host' };
  }
  const remote = screen.split('/')[0]!;
  const entry = remotes.find((one) => one.name === remote)?.entry;
  if (!entry) throw new Error(`${remote} is switched off on this site.`);
  const federationName = remote.replace('-', '_');
  const instance = createInstance({
    name: `console_${federationName}_${entry.replace(/[^a-z0-9]/gi, '_')}`,
    remotes: [{ name: federationName, entry }],
    shared: {
      react: shared('react', React),
      'react/jsx-runtime': shared('react/jsx-runtime', jsxRuntime),
      'react-dom': shared('react-dom', ReactDOM),
      '@dealer/ui/styles.css': shared('@dealer/ui/styles.css', {}),
    },
    shareStrategy: 'loaded-first',
  });
  const loaded = await instance.loadRemote<T>(`${federationName}/${screen.split('/')[1]}`);
  if (!loaded) throw new Error(`${screen} did not load.`);
  return loaded;
}
