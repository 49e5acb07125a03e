#!/usr/bin/env node
// The `billing` bin (package.json "bin"): loads scripts/billing.ts through tsx, resolved from this
// file rather than the working directory, so a linked `billing` (npm link) runs from anywhere.
import { register } from "tsx/esm/api";

register();
await import("./billing.ts");
