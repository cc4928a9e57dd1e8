// pnpm remote:publish <remote> [--no-promote] [--build-id <id>] [--from <git-ref>]
// Builds one remote as a new immutable version. The shell and other remotes are untouched.
// --from publishes the remote as it was at that commit (never promoted: pin a site to it).
import { publishRemote, remotes } from './build-units.mjs';
import { publishRemoteFromRef } from './remote-from-ref.mjs';

const args = process.argv.slice(2);
const remote = args.find((arg) => !arg.startsWith('--') && !['--build-id', '--from'].includes(args[args.indexOf(arg) - 1] ?? ''));
const buildIdIndex = args.indexOf('--build-id');
const fromIndex = args.indexOf('--from');
if (!remote) {
  console.error(`Usage: pnpm remote:publish <remote> [--no-promote] [--build-id <id>]\nRemotes: ${remotes.join(', ')}`);
  process.exit(2);
}
try {
  if (fromIndex >= 0) {
    const printed = publishRemoteFromRef(remote, args[fromIndex + 1] ?? '');
    console.log(printed.trim().split('\n').pop());
    process.exit(0);
  }
  const { version, built } = publishRemote(remote, {
    promote: !args.includes('--no-promote'),
    buildId: buildIdIndex >= 0 ? (args[buildIdIndex + 1] ?? '') : '',
  });
  console.log(`${remote} ${version}${built ? ' published' : ' (unchanged)'}${args.includes('--no-promote') ? '' : ', now latest'}`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
