/**
 * postinstall: applies each `patches/<name>+<version>.patch` (patch-package's naming: a scoped
 * name's `/` is a `+`) to `node_modules/<name>`, after checking that exactly that version is
 * installed. The patches are plain `git diff` output with paths `node_modules/<name>/…`, so they
 * are reviewed like any diff and `git apply` reads them too; this script needs neither git nor
 * `patch`, which the Docker image does not have.
 *
 * A patch applies whole or not at all: every hunk must find its lines exactly where the diff says
 * (no fuzz, no offset). A file whose hunks all read as already applied is left alone, so running
 * it again (`npm install` on a patched tree) is fine. Anything else, a different installed
 * version included, stops the install with a message, so an upgrade is re-checked rather than left
 * unpatched. package.json pins every patched package to the exact version.
 *
 * patches/postgres+3.4.9.patch repairs postgres.js 3.4.9 (the latest release; upstream issues
 * #1066, #1154, #1208, open), where a connection whose backend dies mid-transaction crashes the
 * whole process. The cause: when a query inside `sql.begin()` fails because the server closed the
 * connection, begin() sends its own ROLLBACK on that connection. `closed()` has already set
 * `socket = null`, the small write is deferred with setImmediate, and `nextWrite` then calls
 * `socket.write` on null: an uncaught `TypeError: Cannot read properties of null (reading
 * 'write')` from a timer, which no try/catch can reach. The teardown also clears the write timer
 * without forgetting it, so a connection that survives never flushes a write again (it hangs in
 * CONNECT_TIMEOUT). The repair, in each build of the driver (src, cjs, cf), in the spirit of
 * upstream PR #1155:
 * - a closed connection is marked terminated until it reconnects, so queries sent to it are
 *   rejected (CONNECTION_DESTROYED) instead of written to nothing;
 * - teardown forgets the pending write and its timer, and the dead query and its error, which
 *   would otherwise fail the first query after the reconnect;
 * - teardown after a socket error also fails the queries still waiting (a ROLLBACK queued between
 *   the error and the close): left behind, the first would take the reconnected connection's next
 *   reply, and the pool would never hand that connection out again (a hang);
 * - a write that still finds no socket rejects the connection's queries instead of throwing;
 * - a transaction whose connection closed rejects its later statements, so none of them can run
 *   outside the transaction on the reconnected connection.
 * test/db/driver-crash.test.ts fails if the repair is missing.
 *
 * It also fixes #1189 as upstream PR #1218 does: `sql.begin()` reserves its connection in BEGIN's
 * `onexecute` hook, which `execute()` ran only at the end of a chain of "may this connection take
 * more queries?" tests. When BEGIN filled the pipeline (the 100th query queued on a busy
 * connection) or the socket pushed back, the hook was skipped: the server was inside a transaction
 * the pool did not know about, the connection went back to the pool, and unrelated queries ran in
 * it (writes lost on rollback, locks held). The hook now runs whenever the query was written.
 * test/db/pipeline-begin.test.ts fails without it.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const patchesDir = path.join(root, "patches");

class PatchError extends Error {}

/** `@scope+name+1.2.3.patch` → { name: "@scope/name", version: "1.2.3" }. */
function targetOf(file) {
  const match = /^(?:(@[^+]+)\+)?([^+@][^+]*)\+(\d+\.\d+\.\d+[^+]*)\.patch$/.exec(file);
  if (!match) throw new PatchError(`patches/${file}: expected a name like <package>+<version>.patch`);
  const [, scope, name, version] = match;
  return { name: scope ? `${scope}/${name}` : name, version };
}

/** The files of a `git diff`, each with its hunks as the old and new lines they cover. */
function parsePatch(text, label) {
  const files = [];
  let file = null;
  let hunk = null;
  for (const line of text.split("\n")) {
    if (line.startsWith("diff --git ")) {
      file = { path: null, hunks: [] };
      files.push(file);
      hunk = null;
    } else if (!file) {
      // Text before the first diff: a description.
    } else if (hunk && hunk.oldLeft + hunk.newLeft > 0) {
      const body = line.slice(1);
      if (line.startsWith(" ")) {
        hunk.old.push(body);
        hunk.new.push(body);
        hunk.oldLeft -= 1;
        hunk.newLeft -= 1;
      } else if (line.startsWith("-")) {
        hunk.old.push(body);
        hunk.oldLeft -= 1;
      } else if (line.startsWith("+")) {
        hunk.new.push(body);
        hunk.newLeft -= 1;
      } else {
        throw new PatchError(`${label}: ${file.path}: hunk ends early at "${line}"`);
      }
    } else if (line.startsWith("@@ ")) {
      const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(line);
      if (!m) throw new PatchError(`${label}: unreadable hunk header "${line}"`);
      const oldCount = m[2] === undefined ? 1 : Number(m[2]);
      const newCount = m[4] === undefined ? 1 : Number(m[4]);
      hunk = { newStart: Number(m[3]), old: [], new: [], oldLeft: oldCount, newLeft: newCount };
      if (oldCount === 0 || newCount === 0) {
        throw new PatchError(`${label}: hunks that only add or only remove a whole file are not supported`);
      }
      file.hunks.push(hunk);
    } else if (line.startsWith("+++ ")) {
      if (!line.startsWith("+++ b/"))
        throw new PatchError(`${label}: only edits to existing files are supported`);
      file.path = line.slice("+++ b/".length);
    } else if (line.startsWith("\\")) {
      throw new PatchError(`${label}: files without a final newline are not supported`);
    }
  }
  for (const f of files) {
    if (!f.path || f.hunks.length === 0) throw new PatchError(`${label}: a diff without an edit`);
  }
  return files;
}

/** Whether `lines` holds `block` starting at index `at`. */
const holds = (lines, at, block) => block.every((line, i) => lines[at + i] === line);

/**
 * A file's text with its hunks applied, or null if they already are. The new side of each hunk is
 * where its lines are after the hunks before it, so each hunk is checked and spliced at its new
 * start in the text as edited so far.
 */
function patched(text, hunks, where) {
  const lines = text.split("\n");
  if (hunks.every((h) => holds(lines, h.newStart - 1, h.new))) return null;
  for (const h of hunks) {
    if (!holds(lines, h.newStart - 1, h.old)) {
      throw new PatchError(
        `${where} differs from the patch near line ${h.newStart} (partly patched, or another release)`,
      );
    }
    lines.splice(h.newStart - 1, h.old.length, ...h.new);
  }
  return lines.join("\n");
}

function applyPatch(file) {
  const label = `patches/${file}`;
  const { name, version } = targetOf(file);
  const pkgDir = path.join(root, "node_modules", name);
  let installed;
  try {
    installed = JSON.parse(readFileSync(path.join(pkgDir, "package.json"), "utf8")).version;
  } catch {
    throw new PatchError(`${label}: ${name} is not installed in node_modules`);
  }
  if (installed !== version) {
    throw new PatchError(
      `${label}: ${name} ${installed} is installed, the patch is for ${version}; pin ${name} to ${version} ` +
        "in package.json, or check whether the new release needs the repair and update or remove the patch",
    );
  }
  const edits = parsePatch(readFileSync(path.join(patchesDir, file), "utf8"), label);
  const prefix = `node_modules/${name}/`;
  // Every file is checked before any is written, so a patch that cannot apply changes nothing.
  const writes = edits.map((edit) => {
    if (!edit.path.startsWith(prefix)) throw new PatchError(`${label}: ${edit.path} is outside ${prefix}`);
    const target = path.join(root, edit.path);
    return { target, text: patched(readFileSync(target, "utf8"), edit.hunks, `${label}: ${edit.path}`) };
  });
  const changed = writes.filter((w) => w.text !== null);
  for (const { target, text } of changed) writeFileSync(target, text);
  return `${name} ${version}: ${label} ${changed.length > 0 ? `applied to ${changed.length} files` : "already in place"}`;
}

let patches = [];
try {
  patches = readdirSync(patchesDir).filter((f) => f.endsWith(".patch"));
} catch {
  // No patches/ directory: nothing to apply.
}
try {
  for (const file of patches.sort()) process.stdout.write(`${applyPatch(file)}\n`);
} catch (error) {
  if (!(error instanceof PatchError)) throw error;
  process.stderr.write(`scripts/patch-dependencies.mjs: ${error.message}\n`);
  process.exit(1);
}
