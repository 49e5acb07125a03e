import { Eta } from "eta";
import type { TemplateFiles } from "./template-files.js";

/**
 * One Eta engine per output: HTML escapes every <%= %> value (autoEscape), so a customer named
 * "<script>" is shown, never run; subjects and plain text are not HTML and keep values as they are.
 * Whitespace stays as written (autoTrim off), since in plain text a newline is layout: a line that
 * only holds control flow ends in -%> to drop its own newline. Files are found by
 * template-files.ts (the merchant's folder first) and each compiled file is cached by its path;
 * debug makes an error name the file and line, which a merchant editing a template needs.
 */

export function templateEngine(files: TemplateFiles, output: "html" | "text"): Eta {
  const eta = new Eta({ autoEscape: output === "html", autoTrim: false, cache: true, debug: true });
  eta.resolvePath = (name, options) => files.resolve(name, options?.filepath);
  return eta;
}
