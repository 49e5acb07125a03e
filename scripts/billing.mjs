#!/usr/bin/env node
// The `billing` bin (package.json "bin", `npm run billing`). It runs the compiled CLI in dist/ when
// that build is fresh (scripts/build-state.mjs: no source changed since it was built), which starts
// at once; otherwise (no build yet, or sources edited since) it runs scripts/billing.ts through
// tsx, slower but never out of date. Paths are resolved from this file rather than the working
// directory, so a linked `billing` (npm link) runs from anywhere.
import { distIsFresh } from "./build-state.mjs";

if (distIsFresh()) {
  await import("../dist/scripts/billing.js");
} else {
  if (process.stderr.isTTY) {
    process.stderr.write(
      "billing: dist/ is missing or older than the sources, so they run through tsx (slower); " +
        "`npm run build` makes it start at once\n",
    );
  }
  const { register } = await import("tsx/esm/api");
  register();
  await import("./billing.ts");
}
