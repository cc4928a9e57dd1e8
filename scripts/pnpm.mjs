// Brings the project's own pnpm (pinned in TOOLCHAIN.md) into .tools/ so a machine
// with only Node 20 and npm can install the workspace. Returns the pnpm binary path.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PNPM_VERSION = '12.21.0';
export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const toolsDir = join(root, '.tools');
const pnpmBin = join(toolsDir, 'node_modules', '.bin', 'pnpm');

export function ensurePnpm() {
  if (!existsSync(pnpmBin)) {
    console.log(`[setup] installing pnpm ${PNPM_VERSION} into .tools/`);
    execFileSync('npm', ['install', '--prefix', toolsDir, '--no-save', '--no-package-lock', `pnpm@${PNPM_VERSION}`], {
      stdio: 'inherit',
      cwd: root,
    });
  }
  return pnpmBin;
}

// pnpm 12 ignores `nodedir` from ~/.npmrc; native builds need Node's headers from /usr.
export function installEnv() {
  const env = { ...process.env };
  if (!env.npm_config_nodedir && existsSync('/usr/include/node/node.h')) env.npm_config_nodedir = '/usr';
  return env;
}

export function pnpm(args, opts = {}) {
  execFileSync(ensurePnpm(), args, { stdio: 'inherit', cwd: root, env: installEnv(), ...opts });
}
