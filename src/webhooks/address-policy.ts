/**
 * Which IP addresses a webhook may be sent to. A merchant chooses the URL, so without this rule
 * the engine could be made to POST into its own network: loopback, private and link-local ranges,
 * carrier-grade NAT, cloud metadata services. Such addresses are refused unless WEBHOOK_ALLOWED_HOSTS
 * lists the host name or a network holding the address (local development). Pure: addresses in,
 * verdicts out; resolving names is destination.ts's job.
 *
 * IPv6 forms that carry an IPv4 address (IPv4-mapped ::ffff:a.b.c.d, IPv4-compatible ::a.b.c.d,
 * NAT64 64:ff9b::/96, 6to4 2002::/16) are judged by the IPv4 address inside them.
 */

export type AddressClass =
  | "unspecified"
  | "loopback"
  | "private"
  | "link-local"
  | "carrier-grade NAT"
  | "multicast"
  | "cloud metadata"
  | "reserved";

interface Network {
  bytes: Uint8Array;
  prefix: number;
}

interface ClassifiedNetwork extends Network {
  class: AddressClass;
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const HEXTET = /^[0-9a-f]{1,4}$/i;

function parseIpv4(text: string): Uint8Array | undefined {
  const parts = IPV4.exec(text)?.slice(1).map(Number);
  if (!parts || parts.some((part) => part > 255)) return undefined;
  return Uint8Array.from(parts);
}

function parseIpv6(text: string): Uint8Array | undefined {
  // A zone (fe80::1%eth0) says which interface, not which address.
  const address = text.replace(/%.*$/, "");
  const halves = address.split("::");
  if (halves.length > 2) return undefined;
  const hextets = (half: string | undefined): number[] | undefined => {
    if (!half) return [];
    const groups = half.split(":");
    const out: number[] = [];
    for (const [index, group] of groups.entries()) {
      const embedded = index === groups.length - 1 ? parseIpv4(group) : undefined;
      if (embedded) {
        out.push((embedded[0]! << 8) | embedded[1]!, (embedded[2]! << 8) | embedded[3]!);
      } else if (HEXTET.test(group)) {
        out.push(Number.parseInt(group, 16));
      } else {
        return undefined;
      }
    }
    return out;
  };
  const head = hextets(halves[0]);
  const tail = hextets(halves[1]);
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const groups = [...head, ...Array<number>(missing).fill(0), ...tail];
  return Uint8Array.from(groups.flatMap((group) => [group >> 8, group & 0xff]));
}

/** 4 bytes for IPv4, 16 for IPv6 (brackets and zone allowed), or undefined when not an address. */
export function parseIp(text: string): Uint8Array | undefined {
  const bare = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  return parseIpv4(bare) ?? (bare.includes(":") ? parseIpv6(bare) : undefined);
}

function network(cidr: string): Network {
  const [address = "", prefix] = cidr.split("/");
  const bytes = parseIp(address);
  if (!bytes) throw new RangeError(`${cidr} is not a network`);
  const bits = prefix === undefined ? bytes.length * 8 : Number(prefix);
  if (!Number.isInteger(bits) || bits < 0 || bits > bytes.length * 8) {
    throw new RangeError(`${cidr} has a prefix length out of range`);
  }
  return { bytes, prefix: bits };
}

function contains({ bytes, prefix }: Network, address: Uint8Array): boolean {
  if (bytes.length !== address.length) return false;
  for (let bit = 0; bit < prefix; bit += 8) {
    const index = bit / 8;
    const mask = prefix - bit >= 8 ? 0xff : (0xff << (8 - (prefix - bit))) & 0xff;
    if ((bytes[index]! & mask) !== (address[index]! & mask)) return false;
  }
  return true;
}

const classified = (entries: [string, AddressClass][]): ClassifiedNetwork[] =>
  entries.map(([cidr, addressClass]) => ({ ...network(cidr), class: addressClass }));

/** First match wins, so the metadata services come before the ranges that hold them. */
const FORBIDDEN: ClassifiedNetwork[] = classified([
  ["169.254.169.254/32", "cloud metadata"], // AWS, GCP, Azure, OpenStack, …
  ["168.63.129.16/32", "cloud metadata"], // Azure wire server, a public address
  ["100.100.100.200/32", "cloud metadata"], // Alibaba Cloud
  ["fd00:ec2::254/128", "cloud metadata"], // AWS over IPv6
  ["0.0.0.0/8", "unspecified"],
  ["10.0.0.0/8", "private"],
  ["100.64.0.0/10", "carrier-grade NAT"],
  ["127.0.0.0/8", "loopback"],
  ["169.254.0.0/16", "link-local"],
  ["172.16.0.0/12", "private"],
  ["192.0.0.0/24", "reserved"],
  ["192.168.0.0/16", "private"],
  ["198.18.0.0/15", "reserved"],
  ["224.0.0.0/4", "multicast"],
  ["240.0.0.0/4", "reserved"],
  ["::/128", "unspecified"],
  ["::1/128", "loopback"],
  ["64:ff9b:1::/48", "private"],
  ["100::/64", "reserved"],
  ["fc00::/7", "private"],
  ["fe80::/10", "link-local"],
  ["fec0::/10", "private"],
  ["ff00::/8", "multicast"],
]);

/** IPv6 ranges whose addresses carry an IPv4 address, and where it sits. */
const EMBEDDING: { network: Network; offset: number }[] = [
  { network: network("::ffff:0:0/96"), offset: 12 },
  { network: network("64:ff9b::/96"), offset: 12 },
  { network: network("2002::/16"), offset: 2 },
  // IPv4-compatible; :: and ::1 are matched as themselves before this.
  { network: network("::/96"), offset: 12 },
];

const UNSPECIFIED_V6 = network("::/128");
const LOOPBACK_V6 = network("::1/128");

/** The IPv4 address an IPv6 address stands for, or the address itself. */
function effective(address: Uint8Array): Uint8Array {
  if (address.length === 4 || contains(UNSPECIFIED_V6, address) || contains(LOOPBACK_V6, address)) {
    return address;
  }
  const embedding = EMBEDDING.find(({ network }) => contains(network, address));
  return embedding ? address.slice(embedding.offset, embedding.offset + 4) : address;
}

/** Why an address may not receive webhooks, or null when it may. Throws on text that is no address. */
export function classifyAddress(address: string): AddressClass | null {
  const bytes = parseIp(address);
  if (!bytes) throw new RangeError(`${JSON.stringify(address)} is not an IP address`);
  const judged = effective(bytes);
  return FORBIDDEN.find((range) => contains(range, judged))?.class ?? null;
}

/** WEBHOOK_ALLOWED_HOSTS, compiled: host names, and networks (a lone address is a /32 or /128). */
export interface AllowList {
  hosts: ReadonlySet<string>;
  networks: readonly Network[];
}

const bareHost = (host: string) =>
  host
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.$/, "")
    .toLowerCase();

export function compileAllowList(entries: readonly string[]): AllowList {
  const hosts = new Set<string>();
  const networks: Network[] = [];
  for (const entry of entries) {
    const address = entry.split("/")[0] ?? "";
    if (parseIp(address)) networks.push(network(entry));
    else hosts.add(bareHost(entry));
  }
  return { hosts, networks };
}

export function isHostAllowListed(host: string, allow: AllowList): boolean {
  return allow.hosts.has(bareHost(host));
}

/**
 * Why `address` (reached through `host`) may not receive webhooks, as a sentence for the merchant
 * and the delivery record, or null when it may.
 */
export function addressRefusal(host: string, address: string, allow: AllowList): string | null {
  const addressClass = classifyAddress(address);
  if (addressClass === null || isHostAllowListed(host, allow)) return null;
  const bytes = parseIp(address)!;
  const judged = effective(bytes);
  if (allow.networks.some((allowed) => contains(allowed, judged) || contains(allowed, bytes))) return null;
  const article = /^[aeiou]/.test(addressClass) ? "an" : "a";
  const what = `${article} ${addressClass} address, which webhooks are not sent to (WEBHOOK_ALLOWED_HOSTS lists exceptions)`;
  return bareHost(host) === bareHost(address)
    ? `${address} is ${what}`
    : `${bareHost(host)} resolves to ${address}, ${what}`;
}

/** The host of a URL as the connection will use it, with IPv6 brackets removed. */
export function urlHost(url: string): string {
  return bareHost(new URL(url).hostname);
}
