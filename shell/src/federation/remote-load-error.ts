import type { ExposedModule, RemoteName } from '@dealer/contracts/remote-modules';

/** Why a remote's module is not there: what the shopper sees is the same, support reads the reason. */
export type RemoteLoadFailure = 'timeout' | 'empty' | 'network';

/**
 * A remote's module could not be loaded (as opposed to a remote that loaded and then threw while
 * rendering). The runtime plugin has already reported it, so the boundary does not report it twice.
 */
export class RemoteLoadError extends Error {
  override readonly name = 'RemoteLoadError';

  constructor(
    readonly remote: RemoteName,
    readonly module: ExposedModule | string,
    readonly reason: RemoteLoadFailure,
    options?: { cause?: unknown },
  ) {
    super(
      `${module} ${reason === 'timeout' ? 'did not load in time' : reason === 'empty' ? 'loaded empty' : 'could not be fetched'}`,
      options,
    );
  }
}
