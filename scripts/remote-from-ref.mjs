// Publishes a remote exactly as it was at an earlier commit: its sources, the shared packages and the
// build scripts of that commit, built with today's installed dependencies. For bringing back a
// release whose folder was removed, and for testing that today's shell still runs older remotes.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root } from './pnpm.mjs';
import { remotes, remotesDir } from './build-units.mjs';

/** Returns what that commit's `remote-publish` printed: `<remote> <version> …`. */
export function publishRemoteFromRef(remote, ref, { promote = false } = {}) {
  if (!remotes.includes(remote)) throw new Error(`Unknown remote "${remote}". Remotes: ${remotes.join(', ')}`);
  if (!/^[\w./-]+$/.test(ref)) throw new Error(`"${ref}" is not a git ref`);
  const commit = execFileSync('git', ['rev-parse', '--verify', `${ref}^{commit}`], { cwd: root, encoding: 'utf8' }).trim();
  const tree = mkdtempSync(join(tmpdir(), `${remote}-${commit.slice(0, 8)}-`));
  try {
    const archive = execFileSync(
      'git',
      ['archive', '--format=tar', commit, remote, 'shared', 'scripts', 'package.json', 'pnpm-lock.yaml'],
      { cwd: root, maxBuffer: 256 * 1024 * 1024 },
    );
    execFileSync('tar', ['-x', '-C', tree], { input: archive });
    // pnpm's per-package node_modules hold relative links: copied as links, workspace packages
    // resolve to that commit's shared/ and npm packages to today's store through this link.
    symlinkSync(join(root, 'node_modules'), join(tree, 'node_modules'));
    const packageDirs = [remote, ...readdirSync(join(tree, 'shared')).map((pkg) => join('shared', pkg))];
    for (const dir of packageDirs) {
      if (existsSync(join(root, dir, 'node_modules')))
        cpSync(join(root, dir, 'node_modules'), join(tree, dir, 'node_modules'), { recursive: true, verbatimSymlinks: true });
    }
    return execFileSync(process.execPath, [join(tree, 'scripts', 'remote-publish.mjs'), remote, ...(promote ? [] : ['--no-promote'])], {
      cwd: tree,
      encoding: 'utf8',
      env: { ...process.env, REMOTES_DIR: remotesDir },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
}
