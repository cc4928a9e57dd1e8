// The one list of modules shared between the shell and every remote. Only what must be ONE
// instance in a page is shared: React and its DOM renderer, the router, the store (Redux Toolkit,
// react-redux and @dealer/state), the remote-slot and kept-markup contexts and the design system's stylesheet.
// Pure packages (@dealer/contracts, @dealer/rules, @dealer/events, the rest of @dealer/ui) are
// bundled into each build that uses them, so a remote runs the rules it was built and tested with.
//
// Each entry carries the real version of the package the build was made with, and requires a
// compatible one (`^` that version) with `strictVersion`: a remote built against a newer
// store or slot contract than the page's shell provides fails to load (its area shows the
// fallback) instead of running against the wrong instance.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const sharedDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const versionIn = (dir) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;

/** The installed version of an npm package, as the shell (which depends on all of them) resolves it. */
function npmVersion(name) {
  let dir = dirname(createRequire(join(sharedDir, '..', 'shell', 'package.json')).resolve(name));
  while (!existsSync(join(dir, 'package.json')) || JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name !== name) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`Cannot find the package.json of ${name}`);
    dir = parent;
  }
  return versionIn(dir);
}

const entry = (version) => ({ singleton: true, strictVersion: true, requiredVersion: `^${version}`, version });

const react = npmVersion('react');
const reactDom = npmVersion('react-dom');
const router = npmVersion('react-router');
const routerDom = npmVersion('react-router-dom');
const toolkit = npmVersion('@reduxjs/toolkit');
const reactRedux = npmVersion('react-redux');
const state = versionIn(join(sharedDir, 'state'));
const ui = versionIn(join(sharedDir, 'ui'));

/** @type {Record<string, { singleton: true; strictVersion: true; requiredVersion: string; version: string }>} */
export const sharedSingletons = {
  react: entry(react),
  'react/': entry(react),
  'react-dom': entry(reactDom),
  'react-dom/': entry(reactDom),
  'react-router': entry(router),
  'react-router-dom': entry(routerDom),
  '@reduxjs/toolkit': entry(toolkit),
  '@reduxjs/toolkit/': entry(toolkit),
  'react-redux': entry(reactRedux),
  // The one store every remote injects its endpoints and slices into.
  '@dealer/state/': entry(state),
  // The contexts through which the shell renders slots for remotes.
  '@dealer/ui/remote-slot': entry(ui),
  // The context through which the server repeats parts it has kept (result cards, header, footer).
  '@dealer/ui/kept-markup': entry(ui),
  // One copy of the design system's CSS in the page.
  '@dealer/ui/styles.css': entry(ui),
};
