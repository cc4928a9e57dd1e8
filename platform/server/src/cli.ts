import { runPlatformCli, UsageError } from './platform-cli';

runPlatformCli(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(error instanceof UsageError ? 2 : 1);
});
