// pnpm remote:publish <remote> [--no-promote] [--build-id <id>]
// Builds one remote as a new immutable version. The shell and other remotes are untouched.
import { publishRemote, remotes } from './build-units.mjs';

const args = process.argv.slice(2);
const remote = args.find((arg) => !arg.startsWith('--') && args[args.indexOf(arg) - 1] !== '--build-id');
const buildIdIndex = args.indexOf('--build-id');
if (!remote) {
  console.error(`Usage: pnpm remote:publish <remote> [--no-promote] [--build-id <id>]\nRemotes: ${remotes.join(', ')}`);
  process.exit(2);
}
try {
  const { version, built } = publishRemote(remote, { promote: !args.includes('--no-promote'), buildId: buildIdIndex >= 0 ? (args[buildIdIndex + 1] ?? '') : '' });
  console.log(`${remote} ${version}${built ? ' published' : ' (unchanged)'}${args.includes('--no-promote') ? '' : ', now latest'}`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
