/**
 * The operator CLI's entry point: `npm run cli -- <command>` (tsx, from the sources), or
 * `node dist/apps/operator-cli/src/main.js <command>` where the build is (the apps' image: docs/operations.md).
 */
import { runOperatorCli } from './operator-cli';

runOperatorCli(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
