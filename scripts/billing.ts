/**
 * The `billing` command line (src/cli). Run it as `npm run billing -- <command>`, or
 * `npx tsx scripts/billing.ts <command>`, or, after `npm link`, as `billing <command>`
 * (package.json's bin points at scripts/billing.mjs, which loads this file through tsx).
 */
import { exitWhenFlushed, runCli } from "../src/cli/index.js";

const code = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
});
await exitWhenFlushed(code);
