import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { assertBrowserRouterImports, browserRouterExports, unavailableRouterExports } from './browser-router.mjs';

const shell = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'shell');
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function sources(files: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'browser-router-'));
  dirs.push(dir);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  return dir;
}

describe("the shell's browser build of React Router", () => {
  it('keeps the declarative router the platform and its remotes use', () => {
    const names = browserRouterExports(shell);
    for (const name of [
      'BrowserRouter',
      'Link',
      'NavLink',
      'Navigate',
      'Routes',
      'Route',
      'Outlet',
      'useLocation',
      'useNavigate',
      'useParams',
      'useSearchParams',
      'useHref',
      'matchPath',
      'generatePath',
    ]) {
      expect(names).toContain(name);
    }
  });

  it('leaves out server, framework-mode and data-router APIs', () => {
    const names = browserRouterExports(shell);
    for (const name of [
      'createRequestHandler',
      'createCookie',
      'StaticRouter',
      'HydratedRouter',
      'Scripts',
      'createBrowserRouter',
      'RouterProvider',
      'useLoaderData',
      'Form',
    ]) {
      expect(unavailableRouterExports.has(name)).toBe(true);
      expect(names).not.toContain(name);
    }
  });

  it('passes code that imports only what the browser build has, types included', () => {
    const dir = sources({
      'src/page.tsx':
        "import { Link, useNavigate as go } from 'react-router-dom';\nimport type { Location } from 'react-router';\nimport { type NavigateFunction, useLocation } from 'react-router';\n",
    });
    expect(() => assertBrowserRouterImports([join(dir, 'src')], shell)).not.toThrow();
  });

  it('fails the build of code that imports an API the browser build leaves out', () => {
    const dir = sources({ 'src/page.tsx': "import {\n  Link,\n  useLoaderData,\n} from 'react-router-dom';\n" });
    expect(() => assertBrowserRouterImports([join(dir, 'src')], shell)).toThrow(/page\.tsx: useLoaderData from react-router-dom/);
  });

  it('the platform itself only uses what the browser build has', () => {
    const root = join(shell, '..');
    const code = [
      'shell/src',
      'mf-search/src',
      'mf-vehicle/src',
      'mf-leads/src',
      'mf-checkout/src',
      'mf-garage/src',
      'mf-chat/src',
      'shared/ui/src',
      'shared/state/src',
    ];
    expect(() =>
      assertBrowserRouterImports(
        code.map((dir) => join(root, dir)),
        shell,
      ),
    ).not.toThrow();
  });
});
