import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const EXIT_MODULE = fileURLToPath(new URL("../../../src/cli/exit.ts", import.meta.url));

/** Runs a child that writes `bytes` of JSON to a pipe (more than its 64 KiB buffer) and exits 3 at once. */
function runChild(bytes: number): Promise<{ out: string; code: number | null }> {
  const script = `
    import { exitWhenFlushed } from ${JSON.stringify(EXIT_MODULE)};
    process.stdout.write(JSON.stringify({ data: "x".repeat(${bytes}) }) + "\\n");
    await exitWhenFlushed(3);
  `;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const chunks: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ out: Buffer.concat(chunks).toString("utf8"), code }));
  });
}

it("exits with the command's code only after a piped stdout took the whole document", async () => {
  const { out, code } = await runChild(500_000);
  expect(code).toBe(3);
  expect(out.length).toBeGreaterThan(65_536);
  expect(JSON.parse(out).data).toHaveLength(500_000);
}, 30_000);
