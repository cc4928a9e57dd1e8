import { createContext, lazy, Suspense, useContext, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';
import type { ExposedModule, ExposedProps } from '@dealer/contracts/remote-modules';
import { KeptMarkupNotesContext } from '@dealer/ui/kept-markup';
import { loadRemoteModule } from './remote-runtime';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each module's own props, checked where the module is placed (ExposedProps)
type AnyComponent = ComponentType<any>;

/**
 * The remote modules whose markup the page's HTML already holds. On the server, with their
 * components (from the remotes' server builds); in the browser, the list the document carries.
 */
export type ServerRendered = {
  modules: ReadonlySet<ExposedModule>;
  components?: Partial<Record<ExposedModule, AnyComponent>>;
  /** On the server: told each module whose markup goes in the page, for the browser's list. */
  onRendered?: (module: ExposedModule) => void;
};

export const noneServerRendered: ServerRendered = { modules: new Set() };
export const ServerRenderedContext = createContext<ServerRendered>(noneServerRendered);

const lazyModules = new Map<ExposedModule, LazyExoticComponent<AnyComponent>>();

/** Modules whose code was asked for as the app started (`loadServerRenderedModules`), until hydration takes them. */
const loadsStarted = new Map<ExposedModule, Promise<{ default: AnyComponent }>>();

/**
 * Starts loading the code of every remote module whose markup the page holds, all at once, as the app
 * starts. Left to hydration, a module placed in another's markup (a car page's Enquire, Reserve and
 * Save buttons in the route's module) was asked for only once its parent's code had run and rendered:
 * its remote's entry, then its module, then what the module imports, one after another after the
 * parent's (three round trips later on a phone's network). Each load is the one hydration then waits
 * for: a module that cannot be fetched shows its fallback with Try again, after one attempt and one
 * report, as before.
 */
export function loadServerRenderedModules(modules: Iterable<ExposedModule>) {
  for (const module of modules) {
    if (loadsStarted.has(module) || lazyModules.has(module)) continue;
    const load = loadRemoteModule<{ default: AnyComponent }>(module);
    // Its failure is hydration's to show (the boundary's fallback), not an unhandled rejection before that.
    load.catch(() => undefined);
    loadsStarted.set(module, load);
  }
}

/** One lazy component per module (a handful per page): hydration waits for its code, not for a re-render. */
function lazyRemote(module: ExposedModule) {
  let component = lazyModules.get(module);
  if (!component) {
    component = lazy(() => {
      const started = loadsStarted.get(module);
      loadsStarted.delete(module);
      return started ?? loadRemoteModule<{ default: AnyComponent }>(module);
    });
    lazyModules.set(module, component);
  }
  return component;
}

/**
 * A remote module the server rendered: the same Suspense boundary on both sides, so the browser
 * keeps the server's markup (and hydrates it) until the module's code has arrived, instead of
 * replacing it with a placeholder. Should the module throw on the server, React sends the
 * placeholder for this boundary only and the browser renders it.
 */
export function ServerRenderedRemote<M extends ExposedModule>({
  module,
  props,
  loading,
}: {
  module: M;
  props: ExposedProps[M];
  loading: ReactNode;
}) {
  const { components, onRendered } = useContext(ServerRenderedContext);
  onRendered?.(module);
  // Inside a part the server keeps: the pages that repeat its markup list this module too.
  useContext(KeptMarkupNotesContext)?.push(module);
  const Component = (components?.[module] as AnyComponent | undefined) ?? lazyRemote(module);
  return (
    <Suspense fallback={loading}>
      {/* eslint-disable-next-line react-hooks/static-components -- one lazy component per module, created once (lazyRemote) */}
      <Component {...(props as Record<string, unknown>)} />
    </Suspense>
  );
}
