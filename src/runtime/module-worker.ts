import { Worker, type WorkerOptions } from "node:worker_threads";

/**
 * A worker thread running the module `name` beside the caller, however the caller itself was loaded:
 * - compiled (dist/, the caller a .js file): the sibling `name.js`, as is;
 * - from TypeScript sources (tsx, vitest): the sibling `name.ts`, through tsx registered inside
 *   the thread first. Neither `--import tsx` (its hooks reach no worker thread on Node 20) nor
 *   vitest's transform (it never reaches a worker thread) would load it. tsx is found from the
 *   caller, so the process's working directory does not matter.
 * `caller` is the caller's import.meta.url.
 */
export function startModuleWorker(caller: string, name: string, options: WorkerOptions): Worker {
  if (caller.endsWith(".js")) return new Worker(new URL(`./${name}.js`, caller), options);
  const tsx = import.meta.resolve("tsx/esm/api");
  const entry = new URL(`./${name}.ts`, caller).href;
  const boot = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(boot, { ...options, eval: true });
}
