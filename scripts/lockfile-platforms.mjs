#!/usr/bin/env node
// Completes package-lock.json with the platform-specific optional packages (other OSes, CPUs
// and libcs) that a registry mirror serving only this machine's platform leaves out. Without
// those entries `npm ci` refuses the lock file as out of sync. Each entry gets the exact version
// its parent asks for and the os/cpu/libc read from the package name, so npm skips it on other
// platforms and fetches it by version where it applies. Run after `npm install`.
import { readFileSync, writeFileSync } from "node:fs";

const path = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(path, "utf8"));
const packages = lock.packages;

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

function platformOf(name) {
  const tail = name.split("/").pop();
  const parts = tail.split("-");
  const os = OS.find((o) => parts.includes(o) || (o === "win32" && parts.includes("windows")));
  const cpu = CPU.find(
    (c) =>
      parts.includes(c) ||
      (c === "arm" && parts.includes("armv7")) ||
      (c === "arm" && parts.includes("eabi")),
  );
  const entry = {};
  if (os) entry.os = [os];
  if (cpu) entry.cpu = [cpu];
  if (parts.includes("musl")) entry.libc = ["musl"];
  else if (os === "linux" && parts.includes("gnu")) entry.libc = ["glibc"];
  return entry;
}

let added = 0;
for (const [location, pkg] of Object.entries(packages)) {
  for (const [dep, range] of Object.entries(pkg.optionalDependencies ?? {})) {
    const base = location === "" ? "" : `${location}/`;
    const candidates = [`${base}node_modules/${dep}`, `node_modules/${dep}`];
    if (candidates.some((c) => packages[c])) continue;
    const platform = platformOf(dep);
    if (!platform.os && !platform.cpu) continue;
    const version = String(range).replace(/^[\^~=]/, "");
    packages[`node_modules/${dep}`] = {
      version,
      ...(pkg.dev ? { dev: true } : {}),
      optional: true,
      ...platform,
    };
    added += 1;
  }
}

const sorted = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))),
);
lock.packages = sorted;
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`lockfile-platforms: added ${added} platform entries`);
