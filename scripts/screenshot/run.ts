/**
 * What both screenshot scripts share: one run of a demo engine and headless Chromium (Debian's
 * /usr/bin/chromium, driven by playwright-core), stopped either way. Ctrl-C stops everything and
 * the run fails at its next step; a second one exits at once. The run prints its lines, or one line
 * saying why it failed, and exits 0, 1, or 130 when interrupted.
 */
import { access } from "node:fs/promises";
import { type Browser, chromium } from "playwright-core";
import { type DemoEngine, type DemoEngineOptions, startDemoEngine } from "../../src/runtime/demo/engine.js";

const CHROMIUM = "/usr/bin/chromium";

export class ScreenshotRun {
  readonly began = Date.now();
  interrupted = false;
  private starting: Promise<DemoEngine> | undefined;
  private launching: Promise<Browser> | undefined;
  private stopping: Promise<void> | undefined;

  constructor() {
    process.once("SIGINT", () => {
      this.interrupted = true;
      process.once("SIGINT", () => process.exit(130));
      void this.stop().catch(() => {});
    });
  }

  /** After Ctrl-C nothing new is started. */
  goOn(): void {
    if (this.stopping) throw new Error("interrupted");
  }

  async engine(options: DemoEngineOptions): Promise<DemoEngine> {
    this.starting = startDemoEngine(options);
    const demo = await this.starting;
    this.goOn();
    return demo;
  }

  async browser(): Promise<Browser> {
    this.launching = chromium.launch({
      executablePath: CHROMIUM,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
      ],
    });
    const browser = await this.launching;
    this.goOn();
    return browser;
  }

  /** Closes the browser and the engine, waiting for either if it is still starting. Idempotent. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      const browser = await this.launching?.catch(() => undefined);
      await browser?.close().catch(() => {});
      const demo = await this.starting?.catch(() => undefined);
      await demo?.close();
    })();
    return this.stopping;
  }
}

/** Runs `shoot` (Chromium is checked first, before any engine starts), prints, stops, and exits. */
export async function runScreenshot(shoot: (run: ScreenshotRun) => Promise<string[]>): Promise<never> {
  const run = new ScreenshotRun();
  let failed = false;
  try {
    await access(CHROMIUM).catch(() => {
      throw new Error(`no Chromium at ${CHROMIUM}: install it with apt-get install -y chromium`);
    });
    const lines = await shoot(run);
    process.stdout.write(`${lines.join("\n")}\n`);
  } catch (error) {
    failed = true;
    // One line: a multi-line message (a browser call log, a server's last words) is folded and cut.
    const message = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, " ").trim();
    const line = message.length > 300 ? `${message.slice(0, 299)}…` : message;
    process.stderr.write(run.interrupted ? "screenshot interrupted\n" : `screenshot failed: ${line}\n`);
  } finally {
    await run.stop().catch((error: unknown) => {
      failed = true;
      process.stderr.write(`stopping the engine failed: ${error}\n`);
    });
  }
  process.exit(run.interrupted ? 130 : failed ? 1 : 0);
}
