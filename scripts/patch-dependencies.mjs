/**
 * postinstall: repairs postgres.js 3.4.9 (the latest release; upstream issues #1066, #1154, #1208,
 * open) where a connection whose backend dies mid-transaction crashes the whole process.
 *
 * The cause: when a query inside `sql.begin()` fails because the server closed the connection,
 * begin() sends its own ROLLBACK on that connection. `closed()` has already set `socket = null`, the
 * small write is deferred with setImmediate, and `nextWrite` then calls `socket.write` on null: an
 * uncaught `TypeError: Cannot read properties of null (reading 'write')` from a timer, which no
 * try/catch can reach. The teardown also clears the write timer without forgetting it, so a
 * connection that survives never flushes a write again (it hangs in CONNECT_TIMEOUT).
 *
 * The repair, in each build of the driver (src, cjs, cf), in the spirit of upstream PR #1155:
 * - a closed connection is marked terminated until it reconnects, so queries sent to it are
 *   rejected (CONNECTION_DESTROYED) instead of written to nothing;
 * - teardown forgets the pending write and its timer, and the dead query and its error, which
 *   would otherwise fail the first query after the reconnect;
 * - a write that still finds no socket rejects the connection's queries instead of throwing;
 * - a transaction whose connection closed rejects its later statements, so none of them can run
 *   outside the transaction on the reconnected connection.
 *
 * Each edit is an exact text replacement. Already applied is fine (idempotent); a driver whose text
 * differs stops the install with a message, so an upgrade is re-checked rather than left unpatched.
 * test/db/driver-crash.test.ts fails if the repair is missing.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const driver = path.join(root, "node_modules", "postgres");
const VERSION = "3.4.9";
const MARK = "billing-engine patch";

const CONNECTION_EDITS = [
  {
    find: "  function nextWrite(fn) {\n    const x = socket.write(chunk, fn)\n",
    replace:
      "  function nextWrite(fn) {\n" +
      `    if (!socket) { // ${MARK}: the connection closed while this write waited\n` +
      "      chunk = nextWriteTimer = null\n" +
      "      error(Errors.connection('CONNECTION_CLOSED', options))\n" +
      "      return false\n" +
      "    }\n" +
      "    const x = socket.write(chunk, fn)\n",
  },
  {
    find: "  function terminate() {\n    terminated = true\n    if (stream || query || initial || sent.length)\n      error(Errors.connection('CONNECTION_DESTROYED', options))\n\n    clearImmediate(nextWriteTimer)\n",
    replace:
      "  function terminate() {\n    terminated = true\n    if (stream || query || initial || sent.length)\n      error(Errors.connection('CONNECTION_DESTROYED', options))\n\n    clearImmediate(nextWriteTimer)\n" +
      `    chunk = nextWriteTimer = null // ${MARK}\n`,
  },
  {
    find: "  async function closed(hadError) {\n    incoming = Buffer.alloc(0)\n    remaining = 0\n    incomings = null\n    clearImmediate(nextWriteTimer)\n",
    replace:
      "  async function closed(hadError) {\n" +
      `    terminated = true // ${MARK}: no writes until connect() opens a new socket\n` +
      "    incoming = Buffer.alloc(0)\n    remaining = 0\n    incomings = null\n    clearImmediate(nextWriteTimer)\n" +
      "    chunk = nextWriteTimer = null\n",
  },
  {
    // By here the closed connection's query was rejected; a stale one, or its stale ErrorResponse,
    // would fail the first query after the reconnect with the old backend's error.
    find: "    !hadError && (query || sent.length) && error(Errors.connection('CONNECTION_CLOSED', options, socket))\n",
    replace:
      "    !hadError && (query || sent.length) && error(Errors.connection('CONNECTION_CLOSED', options, socket))\n" +
      `    query = errorResponse = null // ${MARK}\n`,
  },
];

const INDEX_EDITS = [
  {
    find: "      , connection\n      , prepare = null\n\n    try {\n      await sql.unsafe('begin ' + options.replace(/[^a-z ]/ig, ''), [], { onexecute }).execute()\n      return await Promise.race([\n        scope(connection, fn),\n        new Promise((_, reject) => connection.onclose = reject)\n",
    replace:
      "      , connection\n      , prepare = null\n" +
      `      , connectionClosed = false // ${MARK}\n` +
      "\n    try {\n      await sql.unsafe('begin ' + options.replace(/[^a-z ]/ig, ''), [], { onexecute }).execute()\n      return await Promise.race([\n        scope(connection, fn),\n" +
      "        new Promise((_, reject) => connection.onclose = e => (connectionClosed = true, reject(e)))\n",
  },
  {
    find: "      function handler(q) {\n        q.catch(e => uncaughtError || (uncaughtError = e))\n",
    replace:
      "      function handler(q) {\n" +
      `        if (connectionClosed) // ${MARK}: never outside the transaction on a new connection\n` +
      "          return q.reject(Errors.connection('CONNECTION_CLOSED', options))\n" +
      "        q.catch(e => uncaughtError || (uncaughtError = e))\n",
  },
];

function patchFile(file, edits) {
  const original = readFileSync(file, "utf8");
  let text = original;
  for (const { find, replace } of edits) {
    if (text.includes(replace)) continue;
    if (!text.includes(find)) {
      throw new Error(
        `${path.relative(root, file)}: expected text not found; re-check scripts/patch-dependencies.mjs`,
      );
    }
    text = text.replace(find, replace);
  }
  if (text !== original) writeFileSync(file, text);
  return text !== original;
}

const { version } = JSON.parse(readFileSync(path.join(driver, "package.json"), "utf8"));
if (version !== VERSION) {
  process.stderr.write(
    `scripts/patch-dependencies.mjs: postgres ${version} installed, the patch is for ${VERSION}; ` +
      "check whether the new version fixes the null-socket crash and update or remove the patch\n",
  );
  process.exit(1);
}
let changed = 0;
for (const build of ["src", "cjs/src", "cf/src"]) {
  if (patchFile(path.join(driver, build, "connection.js"), CONNECTION_EDITS)) changed += 1;
  if (patchFile(path.join(driver, build, "index.js"), INDEX_EDITS)) changed += 1;
}
process.stdout.write(
  `postgres ${VERSION}: null-socket repair ${changed > 0 ? "applied" : "already in place"}\n`,
);
