// The one list of modules shared as singletons between the shell and every remote:
// one React, one router, one store, one copy of each platform package.
const workspaceVersion = '1.0.0';

/** @type {Record<string, { singleton: true; requiredVersion: string; version?: string }>} */
export const sharedSingletons = {
  react: { singleton: true, requiredVersion: '^19.0.0' },
  'react/': { singleton: true, requiredVersion: '^19.0.0' },
  'react-dom': { singleton: true, requiredVersion: '^19.0.0' },
  'react-dom/': { singleton: true, requiredVersion: '^19.0.0' },
  'react-router': { singleton: true, requiredVersion: '^7.0.0' },
  'react-router-dom': { singleton: true, requiredVersion: '^7.0.0' },
  '@reduxjs/toolkit': { singleton: true, requiredVersion: '^2.14.0' },
  '@reduxjs/toolkit/': { singleton: true, requiredVersion: '^2.14.0' },
  'react-redux': { singleton: true, requiredVersion: '^9.3.0' },
  // Workspace packages need an explicit version, or the manifest records `workspace:*`.
  ...Object.fromEntries(
    ['@dealer/contracts/', '@dealer/rules/', '@dealer/events/', '@dealer/ui/', '@dealer/state/'].map((key) => [
      key,
      { singleton: true, requiredVersion: `^${workspaceVersion}`, version: workspaceVersion },
    ]),
  ),
};
