// The two set-up commands of the README, and `npm run build`:
//   npm start  → install, build what is stale, migrate and seed on first run, serve
//   npm test   → install, build, type check, format check, lint, unit + integration (SQLite and PostgreSQL), e2e
import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { pnpm, root } from './pnpm.mjs';
import { buildConsole, buildServer, buildShell, publishRemote, remotes } from './build-units.mjs';
import { ensureChromium } from './chromium.mjs';
import { serverEnv, serverNodeArgs } from './server-process.mjs';

const command = process.argv[2];
// Browser code, the platform's Node packages (sources without the DOM, then tests) and the tools.
const typeProjects = ['tsconfig.json', 'platform/tsconfig.json', 'platform/tsconfig.test.json', 'tsconfig.tools.json'];

function install() {
  console.log('[setup] installing dependencies');
  pnpm(['install', ...(process.env.CI ? ['--frozen-lockfile'] : [])]);
}

function buildAll() {
  buildShell();
  buildConsole();
  buildServer();
  for (const remote of remotes) publishRemote(remote);
}

function bin(name) {
  return join(root, 'node_modules', '.bin', name);
}

function step(title, file, args, env = {}) {
  console.log(`\n[test] ${title}`);
  execFileSync(file, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
}

function serve() {
  const server = spawn(process.execPath, [...serverNodeArgs, join(root, 'platform/server/dist/main.cjs')], {
    cwd: root,
    stdio: 'inherit',
    env: { ...serverEnv, ...process.env },
  });
  const forward = (signal) => server.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  server.on('exit', (code) => process.exit(code ?? 0));
}

switch (command) {
  case 'start':
    install();
    buildAll();
    serve();
    break;
  case 'build':
    install();
    buildAll();
    break;
  case 'test': {
    install();
    buildAll();
    for (const project of typeProjects) step(`type check (${project})`, bin('tsc'), ['-p', project]);
    step('format check (Prettier)', bin('prettier'), ['--check', '.', '--log-level', 'warn']);
    step('lint', bin('eslint'), ['.', '--max-warnings=0']);
    step('unit and integration tests (SQLite and PostgreSQL)', bin('vitest'), ['run']);
    const chromium = ensureChromium();
    step(
      'end-to-end tests in Chromium',
      join(root, 'e2e', 'node_modules', '.bin', 'playwright'),
      ['test', '-c', 'e2e/playwright.config.ts'],
      { CHROMIUM_PATH: chromium },
    );
    break;
  }
  default:
    console.error('Usage: node scripts/platform-setup.mjs <start|build|test>');
    process.exit(2);
}
