// npm run serve: serve what is built. No install, no build.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './pnpm.mjs';

const entry = join(root, 'platform/server/dist/main.cjs');
if (!existsSync(entry)) {
  console.error('Nothing is built yet: run npm run build (or npm start) first.');
  process.exit(1);
}
// glibc's allocator keeps an arena per thread that drew a photo; two bound what large renders leave behind (README, IMAGE_*).
const server = spawn(process.execPath, ['--enable-source-maps', entry], {
  cwd: root,
  stdio: 'inherit',
  env: { MALLOC_ARENA_MAX: '2', ...process.env },
});
process.on('SIGINT', () => server.kill('SIGINT'));
process.on('SIGTERM', () => server.kill('SIGTERM'));
server.on('exit', (code) => process.exit(code ?? 0));
