// The shell provides React Router to every remote as a singleton. Shared modules cannot be
// tree-shaken (the host does not know what a remote will import), so the shell used to ship all
// of react-router 7 to every browser: its server runtime (request handler, sessions, cookies,
// static rendering), React Server Components, test stubs, framework-mode hydration and the data
// routers. None of that can run in a composed page: the shell renders one <BrowserRouter>, a
// remote cannot mount a router of its own inside it, and the data APIs (loaders, actions,
// fetchers, <Form>, <ScrollRestoration>, ...) throw outside a data router. It was two thirds of
// the shell's router bytes (ARCHITECTURE.md: "The browser bundle holds no server code").
//
// So the shell provides a browser build of `react-router` and `react-router-dom`: every export
// of the package except the ones below (components, hooks and helpers of the declarative router
// stay), at the package's own version. Remotes keep the full package as their fallback (their
// standalone pages use it), and every build checks that the code it composes imports only names
// the browser build has (`assertBrowserRouterImports`), so a remote that needs one of these fails
// its build instead of getting `undefined` at run time.
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Exports of react-router that cannot work under the shell's <BrowserRouter>. */
export const unavailableRouterExports = new Set([
  // Server rendering and the server runtime.
  'ServerRouter',
  'StaticRouter',
  'StaticRouterProvider',
  'createStaticHandler',
  'createStaticRouter',
  'createRequestHandler',
  'createCookie',
  'createCookieSessionStorage',
  'createMemorySessionStorage',
  'createSession',
  'createSessionStorage',
  'isCookie',
  'isSession',
  'unstable_setDevServerHooks',
  'UNSAFE_ServerMode',
  // React Server Components.
  'unstable_RSCStaticRouter',
  'unstable_routeRSCServerRequest',
  'UNSAFE_RSCDefaultRootErrorBoundary',
  // Test helper.
  'createRoutesStub',
  // Framework mode: document components and hydration need <HydratedRouter>'s context.
  'Links',
  'Meta',
  'Scripts',
  'PrefetchPageLinks',
  'HydratedRouter',
  'UNSAFE_FrameworkContext',
  'UNSAFE_RemixErrorBoundary',
  'UNSAFE_createClientRoutes',
  'UNSAFE_createClientRoutesWithHMRRevalidationOptOut',
  'UNSAFE_getHydrationData',
  'UNSAFE_getPatchRoutesOnNavigationFunction',
  'UNSAFE_shouldHydrateRouteLoader',
  'UNSAFE_useFogOFWarDiscovery',
  'UNSAFE_hydrationRouteProperties',
  'UNSAFE_decodeViaTurboStream',
  'UNSAFE_getTurboStreamSingleFetchDataStrategy',
  'UNSAFE_SingleFetchRedirectSymbol',
  'UNSAFE_WithComponentProps',
  'UNSAFE_WithErrorBoundaryProps',
  'UNSAFE_WithHydrateFallbackProps',
  'UNSAFE_withComponentProps',
  'UNSAFE_withErrorBoundaryProps',
  'UNSAFE_withHydrateFallbackProps',
  // Data routers and the APIs that need one (they throw under <BrowserRouter>).
  'createBrowserRouter',
  'createHashRouter',
  'createMemoryRouter',
  'RouterProvider',
  'UNSAFE_createRouter',
  'UNSAFE_mapRouteProperties',
  'UNSAFE_DataRouterStateContext',
  'UNSAFE_FetchersContext',
  'UNSAFE_ViewTransitionContext',
  'UNSAFE_AwaitContextProvider',
  'UNSAFE_useScrollRestoration',
  'Form',
  'Await',
  'ScrollRestoration',
  'useFetcher',
  'useFetchers',
  'useSubmit',
  'useFormAction',
  'useLoaderData',
  'useActionData',
  'useRouteLoaderData',
  'useNavigation',
  'useRevalidator',
  'useBlocker',
  'unstable_usePrompt',
  'useMatches',
  'useRouteError',
  'useAsyncValue',
  'useAsyncError',
  'useViewTransitionState',
  'unstable_useRoute',
  'unstable_useRouterState',
]);

/** The package folder of `name` as seen from `fromDir` (its node_modules, then the parents'). */
function packageDir(name, fromDir) {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(dir) === dir) throw new Error(`${name} is not installed for ${fromDir}`);
  }
}

/** The ESM file a bundler gets for `pkg` + `subpath` (the "import" condition of the exports map). */
function esmEntry(pkgDir, subpath) {
  const entry = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')).exports[subpath];
  const file = entry?.module?.default ?? entry?.import?.default ?? entry?.module ?? entry?.import;
  if (typeof file !== 'string') throw new Error(`No ESM entry for ${subpath} in ${pkgDir}`);
  return join(pkgDir, file);
}

/** Public export names of an ESM file whose exports are `export { a, b as c } from …` lists. */
function exportNames(file) {
  const source = readFileSync(file, 'utf8');
  const names = [];
  for (const block of source.matchAll(/export\s*\{([^}]*)\}/g)) {
    for (const part of block[1].split(',')) {
      const name = part
        .trim()
        .split(/\s+as\s+/)
        .pop()
        ?.trim();
      if (name && name !== 'default') names.push(name);
    }
  }
  return [...new Set(names)];
}

/** The names the browser build of react-router exports, read from the installed package. */
export function browserRouterExports(fromDir) {
  const routerDir = packageDir('react-router', fromDir);
  return exportNames(esmEntry(routerDir, '.')).filter((name) => !unavailableRouterExports.has(name));
}

/**
 * Writes the browser builds of react-router and react-router-dom for the host at `dir` and
 * returns their `shared` entries (same keys, versions and singleton rules as `sharedSingletons`).
 */
export function browserRouterShared(dir, sharedSingletons) {
  const routerDir = packageDir('react-router', dir);
  const routerDomDir = packageDir('react-router-dom', dir);
  const version = (pkgDir) => JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')).version;
  const names = browserRouterExports(dir);
  const out = join(dir, 'node_modules', '.cache', 'dealer-browser-router');
  mkdirSync(out, { recursive: true });
  const write = (file, text) => {
    const path = join(out, file);
    if (!existsSync(path) || readFileSync(path, 'utf8') !== text) writeFileSync(path, text);
    return path;
  };
  const header = '// Generated by shared/build/src/browser-router.mjs: the browser build of React Router the shell provides.\n';
  const router = write('react-router.mjs', `${header}export { ${names.join(', ')} } from ${JSON.stringify(esmEntry(routerDir, '.'))};\n`);
  // `react-router` here is the shared singleton (this very browser build), as in the package's
  // own index; its other exports (HydratedRouter, the DOM RouterProvider) are not available.
  const routerDom = write('react-router-dom.mjs', `${header}export * from 'react-router';\n`);
  return {
    'react-router': { ...sharedSingletons['react-router'], import: router, version: version(routerDir) },
    'react-router-dom': { ...sharedSingletons['react-router-dom'], import: routerDom, version: version(routerDomDir) },
  };
}

function sourceFiles(path, into = []) {
  if (!existsSync(path)) return into;
  if (statSync(path).isFile()) {
    // Tests and the shell's server render (`*.server.tsx`, built for Node with all of React Router) run apart from the browser build.
    if (/\.(ts|tsx|mjs|js)$/.test(path) && !/\.(test|server)\.(ts|tsx)$/.test(path)) into.push(path);
    return into;
  }
  for (const entry of readdirSync(path)) if (entry !== 'node_modules' && entry !== 'dist') sourceFiles(join(path, entry), into);
  return into;
}

/**
 * Fails the build when code that runs in the composed page imports from react-router(-dom) a
 * name the shell's browser build leaves out: it would be undefined at run time.
 */
export function assertBrowserRouterImports(dirs, fromDir) {
  const available = new Set(browserRouterExports(fromDir));
  const problems = [];
  for (const file of dirs.flatMap((dir) => sourceFiles(dir))) {
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+['"](react-router(?:-dom)?)['"]/g)) {
      if (/^import\s+type/.test(match[0])) continue;
      for (const part of match[1].split(',')) {
        const spec = part.trim();
        if (!spec || spec.startsWith('type ')) continue;
        const name = spec.split(/\s+as\s+/)[0].trim();
        if (!available.has(name)) problems.push(`${file}: ${name} from ${match[2]}`);
      }
    }
  }
  if (problems.length) {
    throw new Error(
      `These imports are not in the shell's browser build of React Router (server, test, framework-mode or data-router APIs, which cannot work under the shell's <BrowserRouter>; see shared/build/src/browser-router.mjs):\n  ${problems.join('\n  ')}`,
    );
  }
}
