import { startTransition, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import type { ExposedModule } from '@dealer/contracts/remote-modules';
import { forgetFailedRemote, isModuleEnabled, loadRemoteModule } from './remote-runtime';
import { RemoteBoundary } from './remote-boundary';
import { RoutePlaceholder } from './route-placeholder';

type Loaded = { default: ComponentType<Record<string, unknown>> };
type LoadState = { status: 'loading' } | { status: 'ready'; Component: Loaded['default'] } | { status: 'failed'; error: Error };

/** Loads the module once per mount; a failure is thrown to the boundary, whose retry remounts it. */
function RemoteLoader({ module, props, loading }: { module: ExposedModule; props: Record<string, unknown>; loading: ReactNode }) {
  const [state, setState] = useState<LoadState>({ status: 'loading' });
  useEffect(() => {
    let live = true;
    loadRemoteModule<Loaded>(module).then(
      // A transition: React renders the remote's tree in slices instead of one long task
      // (it blocked input for a few hundred ms on a mid-range phone), keeping the placeholder
      // on screen until the tree is ready.
      (loaded) => live && startTransition(() => setState({ status: 'ready', Component: loaded.default })),
      (error: unknown) => live && setState({ status: 'failed', error: error instanceof Error ? error : new Error(String(error)) }),
    );
    return () => {
      live = false;
    };
  }, [module]);
  if (state.status === 'failed') throw state.error;
  if (state.status === 'loading') return loading;
  const { Component } = state;
  return <Component {...props} />;
}

/**
 * Renders one exposed module of a remote: nothing when the site has that remote off, a spinner
 * while it loads, a fallback with retry when it fails to load or throws.
 */
export function RemoteModule({ module, props, compact = false, loading }: { module: ExposedModule; props: Record<string, unknown>; compact?: boolean; loading?: ReactNode }) {
  const [attempt, setAttempt] = useState(0);
  if (!isModuleEnabled(module)) return null;
  return (
    <RemoteBoundary module={module} compact={compact} onRetry={() => {
        forgetFailedRemote(module);
        setAttempt((n) => n + 1);
      }}>
      <RemoteLoader key={attempt} module={module} props={props} loading={loading === undefined ? <RoutePlaceholder module={module} props={props} /> : loading} />
    </RemoteBoundary>
  );
}

/** The slot renderer the shell hands to remotes through RemoteSlotContext. */
export const renderSlot = (module: ExposedModule, props: Record<string, unknown>) => <RemoteModule module={module} props={props} compact loading={null} />;
