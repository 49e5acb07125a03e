import { describe, expect, it } from "vitest";
import {
  addressRefusal,
  classifyAddress,
  compileAllowList,
  parseIp,
  urlHost,
} from "../../../src/webhooks/address-policy.js";

describe("classifyAddress", () => {
  it.each([
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["10.0.0.1", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["100.127.255.255", "carrier-grade NAT"],
    ["169.254.1.1", "link-local"],
    ["169.254.169.254", "cloud metadata"],
    ["168.63.129.16", "cloud metadata"],
    ["100.100.100.200", "cloud metadata"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["255.255.255.255", "reserved"],
    ["::", "unspecified"],
    ["::1", "loopback"],
    ["0:0:0:0:0:0:0:1", "loopback"],
    ["fc00::1", "private"],
    ["fd12:3456::1", "private"],
    ["fd00:ec2::254", "cloud metadata"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["febf:ffff::1", "link-local"],
    ["ff02::1", "multicast"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:169.254.169.254", "cloud metadata"],
    ["::ffff:10.1.2.3", "private"],
    ["::127.0.0.1", "loopback"],
    ["64:ff9b::a9fe:a9fe", "cloud metadata"],
    ["2002:c0a8:0101::1", "private"],
    ["[::1]", "loopback"],
  ])("%s is %s", (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "172.15.255.255",
    "172.32.0.0",
    "100.63.255.255",
    "100.128.0.0",
    "169.253.255.255",
    "203.0.113.10",
    "2606:4700:4700::1111",
    "2a00:1450:4001:82b::200e",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "fbff::1",
    "fe00::1",
  ])("%s may receive webhooks", (address) => {
    expect(classifyAddress(address)).toBeNull();
  });

  it.each(["", "localhost", "1.2.3", "256.1.1.1", "1::2::3", "::g", "1:2:3:4:5:6:7:8:9", "01.2.3.4.5"])(
    "throws on %j, which is no address",
    (text) => {
      expect(() => classifyAddress(text)).toThrow(RangeError);
    },
  );
});

describe("parseIp", () => {
  it("expands IPv6 shorthand and embedded IPv4 to 16 bytes", () => {
    expect(Array.from(parseIp("::ffff:1.2.3.4")!)).toEqual([
      0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 1, 2, 3, 4,
    ]);
    expect(parseIp("1:2:3:4:5:6:7:8")).toHaveLength(16);
    expect(Array.from(parseIp("1.2.3.4")!)).toEqual([1, 2, 3, 4]);
  });
});

describe("urlHost", () => {
  it.each([
    ["http://2130706433/", "127.0.0.1"],
    ["http://0x7f.0.0.1/", "127.0.0.1"],
    ["http://0177.0.0.1/", "127.0.0.1"],
    ["http://0x7f000001:8080/x", "127.0.0.1"],
    ["http://127.1/", "127.0.0.1"],
    ["http://[::ffff:127.0.0.1]/", "::ffff:7f00:1"],
    ["http://[::1]:3000/", "::1"],
    ["https://Merchant.Example./hooks", "merchant.example"],
  ])("reads %s as host %s, the form it is connected to", (url, host) => {
    expect(urlHost(url)).toBe(host);
  });
});

describe("addressRefusal", () => {
  const none = compileAllowList([]);

  it("names the address and its class, and the host it was reached through", () => {
    expect(addressRefusal("127.0.0.1", "127.0.0.1", none)).toMatch(/^127\.0\.0\.1 is a loopback address/);
    expect(addressRefusal("internal.example", "10.0.0.7", none)).toMatch(
      /^internal\.example resolves to 10\.0\.0\.7, a private address, .*WEBHOOK_ALLOWED_HOSTS/,
    );
    expect(addressRefusal("metadata", "169.254.169.254", none)).toMatch(/a cloud metadata address/);
    expect(addressRefusal("merchant.example", "203.0.113.10", none)).toBeNull();
  });

  it("lets through what the allow-list names: a host, an address, a network", () => {
    const allow = compileAllowList(["localhost", "127.0.0.1", "10.1.0.0/16", "fd00::/8"]);
    expect(addressRefusal("localhost", "::1", allow)).toBeNull();
    expect(addressRefusal("LOCALHOST.", "::1", allow)).toBeNull();
    expect(addressRefusal("127.0.0.1", "127.0.0.1", allow)).toBeNull();
    expect(addressRefusal("::ffff:7f00:1", "::ffff:7f00:1", allow)).toBeNull();
    expect(addressRefusal("10.1.200.3", "10.1.200.3", allow)).toBeNull();
    expect(addressRefusal("fd00::5", "fd00::5", allow)).toBeNull();
    expect(addressRefusal("127.0.0.2", "127.0.0.2", allow)).toMatch(/loopback/);
    expect(addressRefusal("10.2.0.1", "10.2.0.1", allow)).toMatch(/private/);
    expect(addressRefusal("other.example", "::1", allow)).toMatch(/loopback/);
  });
});
