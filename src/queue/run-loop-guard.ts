/**
 * Rule: a worker whose run loop fails without ever waiting is spinning, and is closed for its
 * supervisor to start a fresh one. BullMQ retries a failed fetch at once unless it takes the error
 * for a lost connection (ECONNREFUSED only), and its PostgreSQL backend remembers a failed start-up
 * check, failing every later fetch at once: a database lost while a worker starts makes that loop
 * emit 'error' forever without yielding. Nothing else runs then, no timer, socket or signal, not
 * even the embedded database's exit, so the process hangs at full CPU. The sign: `limit` errors
 * with no turn of the event loop between them, which a loop that waits never reaches.
 */

export const SPIN_LIMIT = 100;

/** Returns the function to call on each error; it calls `onSpin` once, on the `limit`th in a row. */
export function runLoopGuard(onSpin: () => void, limit = SPIN_LIMIT): () => void {
  let inARow = 0;
  let counting = false;
  let spun = false;
  return () => {
    if (!counting) {
      counting = true;
      // Runs at the event loop's next turn, which a spinning loop never lets come.
      setImmediate(() => {
        counting = false;
        inARow = 0;
      });
    }
    inARow += 1;
    if (inARow >= limit && !spun) {
      spun = true;
      onSpin();
    }
  };
}
