import { Suspense, lazy, useMemo, useState, type ComponentType } from 'react';
import { Spinner } from '@dealer/ui/spinner';
import type { ExposedModule } from '@dealer/contracts/remote-modules';
import { isModuleEnabled, loadRemoteModule } from './remote-runtime';
import { RemoteBoundary } from './remote-boundary';

type Loaded = { default: ComponentType<Record<string, unknown>> };

/**
 * Renders one exposed module of a remote: nothing when the site has that remote off, a spinner
 * while it loads, a fallback with retry when it fails. React.lazy keeps a rejected promise,
 * so a retry builds a new lazy component.
 */
export function RemoteModule({ module, props, compact = false, loading }: { module: ExposedModule; props: Record<string, unknown>; compact?: boolean; loading?: React.ReactNode }) {
  const [attempt, setAttempt] = useState(0);
  const Lazy = useMemo(() => lazy(() => loadRemoteModule<Loaded>(module)), [module, attempt]);
  if (!isModuleEnabled(module)) return null;
  return (
    <RemoteBoundary module={module} compact={compact} onRetry={() => setAttempt((n) => n + 1)}>
      <Suspense fallback={loading ?? <Spinner />}>
        <Lazy {...props} />
      </Suspense>
    </RemoteBoundary>
  );
}

/** The slot renderer the shell hands to remotes through RemoteSlotContext. */
export function SlotRenderer({ module, props }: { module: ExposedModule; props: Record<string, unknown> }) {
  return <RemoteModule module={module} props={props} compact loading={null} />;
}
