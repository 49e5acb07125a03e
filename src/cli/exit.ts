/**
 * Ends a finished command with its exit code, after everything it wrote is out. A pipe takes
 * 64 KiB at a time and Node queues the rest; process.exit() drops that queue, so a script reading
 * `billing … --json | jq` got a cut document with exit code 0. An empty write's callback runs once
 * every earlier chunk of its stream is flushed. Exiting explicitly still matters: pools and timers
 * of the engine's libraries must not keep a finished command alive.
 */
export async function exitWhenFlushed(
  code: number,
  streams: readonly NodeJS.WritableStream[] = [process.stdout, process.stderr],
): Promise<never> {
  await Promise.all(
    streams.map(
      (stream) =>
        new Promise<void>((resolve) => {
          // A closed pipe (the reader went away) never calls back with success: stop waiting.
          stream.once?.("error", () => resolve());
          stream.write("", () => resolve());
        }),
    ),
  );
  process.exit(code);
}
