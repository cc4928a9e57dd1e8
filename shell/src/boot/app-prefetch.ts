// A chunk of its own, loaded by app-entry.ts once the page has loaded and the
// browser is idle. Loading it is what makes the bundler's runtime fetch its `webpackPrefetch`
// children at the lowest priority, without running them: the libraries and modules the app's
// start (app-entry.ts `start`) and a first tap on a remote need. At main.js's start (where these
// comments used to be) they took bandwidth and the browser's time from the page's own load.

// A named chunk takes `webpackPrefetch` from the import rspack meets first, so the other imports of
// "federation" and "platform-api" (remote-runtime.ts, shared-modules.ts) carry it too; the prefetch
// map in main.js lists them under this chunk (checked with the built main.js, rspack 2.3).

/** Never called: it declares the chunks fetched ahead; the app imports the same modules where it runs them. */
export const fetchedAhead = () => [
  import(/* webpackPrefetch: true */ 'react-dom/client'),
  import(/* webpackPrefetch: true */ 'react-router-dom'),
  import(/* webpackPrefetch: true */ 'react-redux'),
  import(/* webpackPrefetch: true */ './start-app'),
  import(/* webpackChunkName: "federation", webpackPrefetch: true */ '../federation/federation-host'),
  import(/* webpackChunkName: "platform-api", webpackPrefetch: true */ '@dealer/state/platform-api'),
];
