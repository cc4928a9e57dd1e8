import { startTransition, useContext, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import type { ExposedModule, ExposedProps, SlotName } from '@dealer/contracts/remote-modules';
import { forgetFailedRemote, isModuleEnabled, loadRemoteModule, slotFillers } from './remote-runtime';
import { RemoteBoundary } from './remote-boundary';
import { RoutePlaceholder } from './route-placeholder';
import { ServerRenderedContext, ServerRenderedRemote } from './server-rendered';

type Loaded<M extends ExposedModule> = { default: ComponentType<ExposedProps[M]> };
type LoadState<M extends ExposedModule> =
  { status: 'loading' } | { status: 'ready'; Component: Loaded<M>['default'] } | { status: 'failed'; error: Error };

/** Loads the module once per mount; a failure is thrown to the boundary, whose retry remounts it. */
function RemoteLoader<M extends ExposedModule>({ module, props, loading }: { module: M; props: ExposedProps[M]; loading: ReactNode }) {
  const [state, setState] = useState<LoadState<M>>({ status: 'loading' });
  useEffect(() => {
    let live = true;
    loadRemoteModule<Loaded<M>>(module).then(
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
  // ExposedProps[M] is an object type for every module; TypeScript cannot see that through the generic.
  return <Component {...(props as ExposedProps[M] & object)} />;
}

type RemoteModuleProps<M extends ExposedModule> = { module: M; props: ExposedProps[M]; compact?: boolean; loading?: ReactNode };

/**
 * Renders one exposed module of a remote: nothing when the site has that remote off, a spinner
 * while it loads, a fallback with retry when it fails to load or throws. Its props are the ones the
 * module declares in ExposedProps.
 */
export function RemoteModule<M extends ExposedModule>({ module, props, compact = false, loading }: RemoteModuleProps<M>) {
  const [attempt, setAttempt] = useState(0);
  const serverRendered = useContext(ServerRenderedContext);
  if (!isModuleEnabled(module)) return null;
  const placeholder = loading === undefined ? <RoutePlaceholder module={module} props={props as Record<string, unknown>} /> : loading;
  // The server's markup for this module is on the page: keep it and hydrate it (a retry loads afresh).
  const hydrate = attempt === 0 && serverRendered.modules.has(module);
  return (
    <RemoteBoundary
      module={module}
      compact={compact}
      onRetry={() => {
        forgetFailedRemote(module);
        setAttempt((n) => n + 1);
      }}
    >
      {hydrate ? (
        <ServerRenderedRemote module={module} props={props} loading={placeholder} />
      ) : (
        <RemoteLoader key={attempt} module={module} props={props} loading={placeholder} />
      )}
    </RemoteBoundary>
  );
}

/**
 * The slot renderers the shell hands to remotes (RemoteSlotContext, NamedSlotContext). Their props
 * were checked where the slot is placed (RemoteSlot / NamedSlot), so they pass through as they are.
 */
export const renderSlot = (module: ExposedModule, props: Record<string, unknown>) => (
  <RemoteModule module={module} props={props as never} compact loading={null} />
);
export const renderNamedSlot = (name: SlotName, props: Record<string, unknown>) =>
  slotFillers(name).map((module) => <RemoteModule key={module} module={module} props={props as never} compact loading={null} />);
