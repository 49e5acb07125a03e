import type { Logger } from "pino";
import { writeStateFile, writeStateFileSync } from "./state-file.js";

/** At most one write per window: under steady traffic a pure debounce would never write. */
const SAVE_WINDOW_MS = 250;

/**
 * Writes the simulator's state to its file after changes: a change schedules a write within the
 * window, covering every change made meanwhile; flush() writes at once (reset, close), and
 * flushSync() too when the process is exiting. Writes run one after another, and a state equal to
 * the last one written is not written again.
 */
export class StateSaver {
  private timer: NodeJS.Timeout | undefined;
  private queue: Promise<void> = Promise.resolve();
  private written: string | undefined;

  constructor(
    private readonly path: string,
    private readonly encode: () => string,
    private readonly logger: Logger,
  ) {}

  changed(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.flush().catch((error: unknown) =>
        this.logger.error({ err: error, path: this.path }, "could not save the simulator state"),
      );
    }, SAVE_WINDOW_MS);
    // Closing flushes; a pending write alone should not keep a process alive.
    this.timer.unref();
  }

  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const write = this.queue.then(async () => {
      const text = this.encode();
      if (text === this.written) return;
      await writeStateFile(this.path, text);
      this.written = text;
    });
    // A failed write is reported to its caller; the next one still runs.
    this.queue = write.catch(() => undefined);
    return write;
  }

  /**
   * Writes now, synchronously: for a process that exits (process.exit, an uncaught exception),
   * where a write still waiting in the window, or one under way, would never finish.
   */
  flushSync(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const text = this.encode();
    if (text === this.written) return;
    writeStateFileSync(this.path, text);
    this.written = text;
  }
}
