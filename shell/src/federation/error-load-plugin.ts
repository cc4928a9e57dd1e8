import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import type { RemoteName } from '@dealer/contracts/remote-modules';
import { reportRemoteFailure } from './report-failure';

/**
 * Second layer of failure handling, after the retry plugin: log which lifecycle failed.
 * The error still rejects so the React boundary (third layer) shows its fallback and retry.
 */
export function errorLoadPlugin(): ModuleFederationRuntimePlugin {
  return {
    name: 'dealer-error-load',
    errorLoadRemote({ id, error, lifecycle }) {
      const remote = id.split('/')[0]?.replace('_', '-') as RemoteName;
      reportRemoteFailure(remote, `${id} (${lifecycle})`, error);
      throw error instanceof Error ? error : new Error(String(error));
    },
  };
}
