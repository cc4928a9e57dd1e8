// npm run serve: serve what is built. No install, no build.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './pnpm.mjs';
import { serverEnv, serverNodeArgs } from './server-process.mjs';

const entry = join(root, 'platform/server/dist/main.cjs');
if (!existsSync(entry)) {
  console.error('Nothing is built yet: run npm run build (or npm start) first.');
  process.exit(1);
}
const server = spawn(process.execPath, [...serverNodeArgs, entry], {
  cwd: root,
  stdio: 'inherit',
  env: { ...serverEnv, ...process.env },
});
process.on('SIGINT', () => server.kill('SIGINT'));
process.on('SIGTERM', () => server.kill('SIGTERM'));
server.on('exit', (code) => process.exit(code ?? 0));
