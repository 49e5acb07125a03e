/**
 * The cluster test's network (scripts/cluster.ts): one Linux network namespace per host, each with
 * a veth whose other end is on a bridge in the root namespace, all on 10.77.0.0/24. This process
 * (the operator's machine) stays in the root namespace and reaches every host through the bridge.
 *
 *   bill0 (bridge, root namespace)  10.77.0.1
 *   bill-db   PostgreSQL and Redis  10.77.0.2
 *   bill-sim  the gateway simulator 10.77.0.3
 *   bill-e1   the scheduler         10.77.0.11
 *   bill-e2   a charge worker       10.77.0.12
 *   bill-e3   a charge worker       10.77.0.13
 *
 * The namespaces and the root ends of their veths share the name; inside each namespace the veth is
 * eth0. Names are fixed, so one run at a time: a lock file holds the runner's pid, and a run that
 * finds the lock of a dead runner removes what it left (its processes, by the pids `ip netns pids`
 * lists in those namespaces, then the namespaces, the bridge and its data directories) first.
 *
 * A host is cut off in one of two ways (CLUSTER_CUT_MODE):
 * - drop: the bridge stops forwarding the host's port (`bridge link set … state 0`), as a switch
 *   or a firewall dropping everything would: the host's link stays up and its packets leave it,
 *   then vanish, both ways (ARP included). Its sockets see nothing but silence; TCP retransmits,
 *   and whatever the host had not got acknowledged reaches the others once the cut heals;
 * - link: the host's own interface goes down (`ip link set eth0 down` in its namespace): its
 *   routes go with it and its sockets get errors at once, as when its cable is pulled.
 */
import { type ChildProcess, execFile, type StdioOptions, spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);

export const SUBNET = "10.77.0";
export const BRIDGE = "bill0";
export const BRIDGE_ADDRESS = `${SUBNET}.1`;
/** Data and log directories of a run are made under the OS temp dir with this prefix. */
export const TEMP_PREFIX = "billing-cluster-";

export type HostName = "db" | "sim" | "e1" | "e2" | "e3";

export interface Host {
  readonly name: HostName;
  /** The namespace, and the root namespace's end of the host's veth. */
  readonly ns: string;
  readonly address: string;
}

const host = (name: HostName, last: number): Host => ({
  name,
  ns: `bill-${name}`,
  address: `${SUBNET}.${last}`,
});

export const HOSTS: Readonly<Record<HostName, Host>> = {
  db: host("db", 2),
  sim: host("sim", 3),
  e1: host("e1", 11),
  e2: host("e2", 12),
  e3: host("e3", 13),
};

export type CutMode = "drop" | "link";

/** Bridge port states (`bridge link set … state N`; the bridge runs no STP, so they stay as set). */
const PORT_DISABLED = 0;
const PORT_FORWARDING = 3;

/** Runs a command to completion; throws with its stderr unless `allowFail`. */
export async function sh(
  command: string,
  args: readonly string[],
  options: { allowFail?: boolean; cwd?: string } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await execFileAsync(command, [...args], {
      cwd: options.cwd,
      maxBuffer: 16 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failure = error as { code?: number | string; stdout?: string; stderr?: string; message: string };
    if (options.allowFail) {
      return {
        code: typeof failure.code === "number" ? failure.code : 1,
        stdout: failure.stdout ?? "",
        stderr: failure.stderr ?? failure.message,
      };
    }
    throw new Error(
      `${command} ${args.join(" ")} failed: ${(failure.stderr ?? "").trim() || failure.message}`,
    );
  }
}

/** Runs a command inside a host's namespace. */
export function shIn(
  host: Host,
  command: string,
  args: readonly string[],
  options?: { allowFail?: boolean },
) {
  return sh("ip", ["netns", "exec", host.ns, command, ...args], options);
}

/**
 * Starts a long-running process inside a host's namespace. `ip netns exec` execs the command in
 * place, so the child's pid is the command's own (signals reach it directly).
 */
export function spawnIn(
  host: Host,
  command: string,
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; stdio?: StdioOptions; cwd?: string } = {},
): ChildProcess {
  return spawn("ip", ["netns", "exec", host.ns, command, ...args], {
    env: options.env ?? process.env,
    stdio: options.stdio ?? ["ignore", "ignore", "inherit"],
    cwd: options.cwd,
  });
}

/** Why this machine cannot run the cluster test, or null when it can. */
export function missingPrerequisite(): string | null {
  if (process.platform !== "linux") return `network namespaces need Linux (this is ${process.platform})`;
  if (process.getuid?.() !== 0)
    return "making network namespaces, veths and a bridge needs root (run as root, e.g. sudo npm run cluster)";
  const ip = spawnSync("ip", ["-V"], { encoding: "utf8" });
  if (ip.error) return "the `ip` command (iproute2) is not installed";
  const probe = "bill-probe";
  spawnSync("ip", ["netns", "del", probe]);
  const made = spawnSync("ip", ["netns", "add", probe], { encoding: "utf8" });
  if (made.status !== 0)
    return `network namespaces cannot be made here (ip netns add: ${made.stderr.trim() || made.error?.message})`;
  const veth = spawnSync(
    "ip",
    ["link", "add", "bill-probe0", "type", "veth", "peer", "name", "eth0", "netns", probe],
    { encoding: "utf8" },
  );
  spawnSync("ip", ["netns", "del", probe]);
  spawnSync("ip", ["link", "del", "bill-probe0"]);
  if (veth.status !== 0) return `veth pairs cannot be made here (ip link add: ${veth.stderr.trim()})`;
  return null;
}

const LOCK_FILE = existsSync("/run") ? "/run/billing-cluster.lock" : join(tmpdir(), "billing-cluster.lock");

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Takes the one-run-at-a-time lock; throws when another live run holds it. A lock left by a run
 * that died is taken over, and `true` is returned so the caller removes what that run left.
 */
export function takeLock(): { release: () => void; stale: boolean } {
  let stale = false;
  for (let tries = 0; tries < 2; tries++) {
    try {
      const fd = openSync(LOCK_FILE, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return {
        stale,
        release: () => {
          if (existsSync(LOCK_FILE) && readFileSync(LOCK_FILE, "utf8").trim() === String(process.pid))
            rmSync(LOCK_FILE, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = Number(readFileSync(LOCK_FILE, "utf8").trim());
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && alive(holder))
        throw new Error(`another cluster run (pid ${holder}) is going; its lock is ${LOCK_FILE}`);
      rmSync(LOCK_FILE, { force: true });
      stale = true;
    }
  }
  throw new Error(`could not take ${LOCK_FILE}`);
}

async function namespaces(): Promise<string[]> {
  const { stdout } = await sh("ip", ["netns", "list"]);
  return stdout
    .split("\n")
    .map((line) => line.split(" ")[0]!.trim())
    .filter(Boolean);
}

async function linkExists(name: string): Promise<boolean> {
  return (await sh("ip", ["link", "show", name], { allowFail: true })).code === 0;
}

/** Pids of the processes in a host's namespace. */
export async function pidsIn(host: Host): Promise<number[]> {
  const { stdout } = await sh("ip", ["netns", "pids", host.ns], { allowFail: true });
  return stdout
    .split(/\s+/)
    .filter(Boolean)
    .map(Number)
    .filter((pid) => pid !== process.pid);
}

/**
 * Removes the network and everything in it: the processes still in its namespaces (SIGKILL, by
 * pid), the namespaces (their veths go with them), the bridge. With `dataDirs`, also the data and
 * log directories earlier runs left under the temp dir. Returns what it removed. Idempotent.
 */
export async function removeNetwork(options: { dataDirs?: boolean } = {}): Promise<string[]> {
  const removed: string[] = [];
  const present = new Set(await namespaces());
  for (const h of Object.values(HOSTS)) {
    if (!present.has(h.ns)) continue;
    const pids = await pidsIn(h);
    for (const pid of pids) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // gone already
      }
    }
    if (pids.length > 0) removed.push(`${pids.length} process(es) in ${h.ns}`);
    // A namespace whose processes are still exiting is kept alive by them; deleting the name is enough.
    await sh("ip", ["netns", "del", h.ns], { allowFail: true });
    removed.push(`namespace ${h.ns}`);
  }
  for (const h of Object.values(HOSTS)) {
    if (await linkExists(h.ns)) {
      await sh("ip", ["link", "del", h.ns], { allowFail: true });
      removed.push(`veth ${h.ns}`);
    }
  }
  if (await linkExists(BRIDGE)) {
    await sh("ip", ["link", "del", BRIDGE], { allowFail: true });
    removed.push(`bridge ${BRIDGE}`);
  }
  if (options.dataDirs) {
    for (const entry of readdirSync(tmpdir())) {
      if (!entry.startsWith(TEMP_PREFIX)) continue;
      rmSync(join(tmpdir(), entry), { recursive: true, force: true });
      removed.push(`directory ${join(tmpdir(), entry)}`);
    }
  }
  return removed;
}

/** Makes the bridge, the namespaces and their veths, and checks that the subnet is ours alone. */
export async function createNetwork(): Promise<void> {
  const routes = await sh("ip", ["-4", "route", "show", "to", "match", `${SUBNET}.0/24`]);
  const clash = routes.stdout.split("\n").filter((line) => line.trim() !== "" && !line.startsWith("default"));
  if (clash.length > 0)
    throw new Error(
      `${SUBNET}.0/24 is already routed on this machine (${clash.join("; ")}); not touching it`,
    );
  await sh("ip", ["link", "add", BRIDGE, "type", "bridge"]);
  await sh("ip", ["addr", "add", `${BRIDGE_ADDRESS}/24`, "dev", BRIDGE]);
  await sh("ip", ["link", "set", BRIDGE, "up"]);
  for (const h of Object.values(HOSTS)) {
    await sh("ip", ["netns", "add", h.ns]);
    await sh("ip", ["link", "add", h.ns, "type", "veth", "peer", "name", "eth0", "netns", h.ns]);
    await sh("ip", ["link", "set", h.ns, "master", BRIDGE]);
    await sh("ip", ["link", "set", h.ns, "up"]);
    await shIn(h, "ip", ["link", "set", "lo", "up"]);
    await shIn(h, "ip", ["addr", "add", `${h.address}/24`, "dev", "eth0"]);
    await shIn(h, "ip", ["link", "set", "eth0", "up"]);
  }
}

/** Cuts a host off from every other (see the module comment for the two modes). */
export async function cut(h: Host, mode: CutMode): Promise<void> {
  if (mode === "link") await shIn(h, "ip", ["link", "set", "eth0", "down"]);
  else await sh("bridge", ["link", "set", "dev", h.ns, "state", String(PORT_DISABLED)]);
}

/** Undoes cut(). */
export async function heal(h: Host, mode: CutMode): Promise<void> {
  if (mode === "link") await shIn(h, "ip", ["link", "set", "eth0", "up"]);
  else await sh("bridge", ["link", "set", "dev", h.ns, "state", String(PORT_FORWARDING)]);
}

export interface QueuedSockets {
  /** TCP sockets of the host toward `peer` holding data `peer` has not acknowledged. */
  readonly sockets: number;
  /** Of them, sockets their process has closed (the kernel still retransmitting what they hold). */
  readonly orphaned: number;
  /** The data, in bytes (a pending FIN, which `ss` counts as one, is not data). */
  readonly bytes: number;
}

/**
 * What a host still has on its way to `peer` (address:port) in its kernel: TCP sockets whose send
 * queue holds data (`ss`, Send-Q). Closed ones (FIN-WAIT-1, CLOSING, LAST-ACK) count too: their
 * process let go of them, yet the kernel goes on retransmitting what they hold, then their FIN.
 */
export async function queuedToward(h: Host, peer: string): Promise<QueuedSockets> {
  const { stdout } = await shIn(h, "ss", ["-tanH", "dst", peer], { allowFail: true });
  let sockets = 0;
  let orphaned = 0;
  let bytes = 0;
  for (const line of stdout.split("\n")) {
    const [state, , sendQ] = line.trim().split(/\s+/);
    if (!state) continue;
    const closed = /^(FIN-WAIT-1|CLOSING|LAST-ACK)$/.test(state);
    const data = Number(sendQ ?? 0) - (closed ? 1 : 0);
    if (!(data > 0)) continue;
    sockets += 1;
    bytes += data;
    if (closed) orphaned += 1;
  }
  return { sockets, orphaned, bytes };
}
