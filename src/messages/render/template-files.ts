import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Where a template file is read from. A name such as "ar/receipt.html" (".eta" implied) is looked
 * up file by file: first in the merchant's folder (MESSAGE_TEMPLATES_DIR), then in the built-in
 * templates, so a merchant can replace one file and keep the rest. A name inside a template
 * ("./layout.html") is relative to the including file's folder within its root, and is looked up
 * the same way: an overridden receipt still uses the built-in layout unless that is overridden too.
 * The built-in folder is found beside this module, so tsx (src/) and the build (dist/src/, which
 * scripts/build.mjs copies the templates into) both find it. Names cannot leave a root. A lookup
 * is kept for the renderer's life: a file added later needs a restart, like a changed one (the
 * compiled templates are cached too).
 */

export const BUILT_IN_TEMPLATES = fileURLToPath(new URL("../templates/", import.meta.url));

export interface TemplateFiles {
  /** The absolute path of a template, `from` being the absolute path of the file that names it. */
  resolve(name: string, from?: string): string;
}

export function templateFiles(overrideDir?: string): TemplateFiles {
  const roots = [BUILT_IN_TEMPLATES];
  if (overrideDir !== undefined) {
    const dir = path.resolve(overrideDir);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) {
      throw new Error(`message templates folder ${JSON.stringify(dir)} does not exist`);
    }
    roots.unshift(dir);
  }
  const found = new Map<string, string>();
  return {
    resolve(name, from) {
      const relative = relativeName(name, from, roots);
      let file = found.get(relative);
      if (file === undefined) {
        file = roots.map((root) => path.join(root, relative)).find((candidate) => existsSync(candidate));
        if (file === undefined) throw new Error(`no message template ${relative} in ${roots.join(" or ")}`);
        found.set(relative, file);
      }
      return file;
    },
  };
}

function relativeName(name: string, from: string | undefined, roots: string[]): string {
  const file = name.endsWith(".eta") ? name : `${name}.eta`;
  const root = from === undefined ? undefined : roots.find((candidate) => isInside(candidate, from));
  const joined =
    root === undefined || from === undefined || file.startsWith("/")
      ? file
      : path.join(path.dirname(path.relative(root, from)), file);
  const normalized = path.normalize(joined).replace(/^\/+/, "");
  if (normalized === ".." || normalized.startsWith("../")) {
    throw new Error(`message template ${JSON.stringify(name)} is outside the templates folder`);
  }
  return normalized;
}

function isInside(root: string, file: string): boolean {
  const relative = path.relative(root, file);
  return relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative);
}
