import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The engine's version, from the package.json above this module (found by walking up, so it holds
 * whether the CLI runs from the TypeScript sources or from compiled JavaScript).
 */
export function engineVersion(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === "billing-engine" && pkg.version) return pkg.version;
    } catch {
      // no package.json here: keep walking up
    }
    if (dirname(dir) === dir) return "unknown";
  }
}
