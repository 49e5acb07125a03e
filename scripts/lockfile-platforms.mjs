#!/usr/bin/env node
// Completes package-lock.json with the platform-specific optional packages (other OSes, CPUs
// and libcs) that a registry mirror serving only this machine's platform leaves out. Without
// those entries `npm ci` refuses the lock file as out of sync. Each entry gets the exact version
// its parent asks for, and from the registry's packument of that version its integrity hash and
// its os/cpu/libc, engines and license, as npm itself would write them, so npm skips it on other
// platforms and checks what it downloads where it applies. Any other entry found without an
// integrity hash gets one the same way. Run after `npm install`; it needs the registry
// (npm's configured one when run as `npm run lock:platforms`, else registry.npmjs.org).
import { readFileSync, writeFileSync } from "node:fs";

const path = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(path, "utf8"));
const packages = lock.packages;
const registry = (process.env.npm_config_registry || "https://registry.npmjs.org/").replace(/\/?$/, "/");

const OS = [
  "darwin",
  "linux",
  "win32",
  "freebsd",
  "openbsd",
  "netbsd",
  "sunos",
  "android",
  "aix",
  "openharmony",
];
const CPU = ["arm64", "x64", "ia32", "arm", "ppc64", "s390x", "riscv64", "loong64", "mips64el", "wasm32"];

/** Whether a package's name says it is built for one OS or CPU. */
function isPlatformPackage(name) {
  const parts = name.split("/").pop().split("-");
  return (
    OS.some((o) => parts.includes(o) || (o === "win32" && parts.includes("windows"))) ||
    CPU.some((c) => parts.includes(c)) ||
    parts.includes("armv7") ||
    parts.includes("eabi")
  );
}

const packuments = new Map();
/** The registry's manifest of exactly `name@version`. */
async function manifest(name, version) {
  if (!packuments.has(name)) {
    const url = `${registry}${name.replace("/", "%2f")}`;
    packuments.set(
      name,
      fetch(url, { headers: { accept: "application/json" } }).then(async (response) => {
        if (!response.ok) throw new Error(`lockfile-platforms: ${url}: HTTP ${response.status}`);
        return response.json();
      }),
    );
  }
  const found = (await packuments.get(name)).versions?.[version];
  if (!found?.dist?.integrity) {
    throw new Error(`lockfile-platforms: the registry has no ${name}@${version} with an integrity hash`);
  }
  return found;
}

/** A lock entry the way npm writes one, from the version's manifest. */
async function entryFor(name, version, flags) {
  const m = await manifest(name, version);
  const entry = { version, integrity: m.dist.integrity };
  if (m.cpu) entry.cpu = m.cpu;
  if (flags.dev) entry.dev = true;
  if (m.hasInstallScript || ["preinstall", "install", "postinstall"].some((s) => m.scripts?.[s])) {
    entry.hasInstallScript = true;
  }
  if (m.libc) entry.libc = m.libc;
  if (m.license) entry.license = m.license;
  if (flags.optional) entry.optional = true;
  if (m.os) entry.os = m.os;
  if (m.engines?.node) entry.engines = { node: m.engines.node };
  if (Object.keys(m.dependencies ?? {}).length > 0) {
    throw new Error(
      `lockfile-platforms: ${name}@${version} has dependencies of its own; add it with npm instead`,
    );
  }
  return entry;
}

/**
 * Where `require(dep)` from the package at `location` looks, nearest first (node's lookup), up to
 * and including the first place that has it.
 */
function lookupFrom(location, dep) {
  const places = [];
  for (let at = location; ; ) {
    const place = `${at === "" ? "" : `${at}/`}node_modules/${dep}`;
    places.push(place);
    if (packages[place] || at === "") return places;
    const up = at.lastIndexOf("/node_modules/");
    at = up === -1 ? "" : at.slice(0, up);
  }
}

const depth = (location) => location.split("node_modules/").length;

const nameOf = (location) => location.slice(location.lastIndexOf("node_modules/") + "node_modules/".length);

// Shallowest parents first, so the hoisted copy of a package goes to the version the top-level
// parent asks for and a nested parent that asks for another gets its own copy nearer to it.
let added = 0;
const parents = Object.entries(packages).sort(([a], [b]) => depth(a) - depth(b));
for (const [location, pkg] of parents) {
  for (const [dep, range] of Object.entries(pkg.optionalDependencies ?? {})) {
    if (!isPlatformPackage(dep)) continue;
    const version = String(range).replace(/^[\^~=]/, "");
    // The place that has it, if any, else the root; a wrong version there gets the right one
    // just below it, which the parent then finds first (where npm would put it too).
    const places = lookupFrom(location, dep);
    const last = places.at(-1);
    if (packages[last]?.version === version) continue;
    const at = packages[last] ? places.at(-2) : last;
    if (at === undefined) throw new Error(`lockfile-platforms: ${location} has ${dep} in another version`);
    packages[at] = await entryFor(dep, version, { dev: pkg.dev, optional: true });
    added += 1;
  }
}

// Entries from the registry with no integrity hash (the ones this script added before it took
// them from the packument): npm ci would download them unchecked.
let hashed = 0;
for (const [location, pkg] of Object.entries(packages)) {
  if (location === "" || pkg.link || pkg.integrity) continue;
  if (pkg.resolved && !pkg.resolved.startsWith(registry)) continue; // git, file or tarball URL
  const { integrity } = (await manifest(nameOf(location), pkg.version)).dist;
  packages[location] = Object.fromEntries(
    Object.entries(pkg).flatMap(([key, value]) =>
      key === "version"
        ? [
            [key, value],
            ["integrity", integrity],
          ]
        : [[key, value]],
    ),
  );
  hashed += 1;
}

const sorted = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))),
);
lock.packages = sorted;
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`lockfile-platforms: added ${added} platform entries, an integrity hash to ${hashed} more`);
