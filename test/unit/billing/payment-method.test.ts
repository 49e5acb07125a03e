import fc from "fast-check";
import { DateTime, Duration } from "luxon";
import { describe, expect, it } from "vitest";
import {
  CardExpiryFormatError,
  expiringSoon,
  isChargeable,
  parseCardExpiry,
  type TokenLifecycle,
  tokenExpiry,
  tokenStatus,
} from "../../../src/billing/index.js";

const at = (iso: string) => DateTime.fromISO(iso, { zone: "utc" });

describe("parseCardExpiry", () => {
  it.each([
    ["01/27", 2027, 1],
    ["12/30", 2030, 12],
    ["09/00", 2000, 9],
  ])("%s is month %i/%i", (input, year, month) => {
    expect(parseCardExpiry(input)).toEqual({ year, month });
  });

  it.each(["13/27", "00/27", "1/27", "01/2027", " 01/27", "01/27 ", "01-27", "0127", "ab/cd", ""])(
    "refuses %j",
    (input) => {
      expect(() => parseCardExpiry(input)).toThrow(CardExpiryFormatError);
    },
  );
});

describe("tokenExpiry", () => {
  it.each([
    // six months come first
    ["2027-01-15T10:00:00.000Z", "12/29", "2027-07-15T10:00:00.000Z"],
    ["2027-01-15T10:00:00.000Z", null, "2027-07-15T10:00:00.000Z"],
    ["2027-01-15T10:00:00.000Z", undefined, "2027-07-15T10:00:00.000Z"],
    // six months from Aug 31 land on the last day of February
    ["2027-08-31T10:00:00.000Z", null, "2028-02-29T10:00:00.000Z"],
    ["2026-08-31T10:00:00.000Z", null, "2027-02-28T10:00:00.000Z"],
    // the card expires first: valid through the last instant of its expiry month
    ["2027-01-15T10:00:00.000Z", "03/27", "2027-03-31T23:59:59.999Z"],
    ["2027-11-15T10:00:00.000Z", "02/28", "2028-02-29T23:59:59.999Z"],
    ["2027-01-15T10:00:00.000Z", "07/27", "2027-07-15T10:00:00.000Z"],
    // a card already expired when the token was issued gives a token born expired
    ["2027-01-15T10:00:00.000Z", "12/26", "2026-12-31T23:59:59.999Z"],
  ])("issued %s, card %s → %s", (issuedAt, card, expected) => {
    expect(tokenExpiry(at(issuedAt), card).toISO()).toBe(expected);
  });

  it("works on the UTC instant whatever zone the input carries", () => {
    const issued = DateTime.fromISO("2027-01-15T13:00:00.000+03:00", { setZone: true });
    expect(tokenExpiry(issued, null).toISO()).toBe("2027-07-15T10:00:00.000Z");
  });

  it("refuses a malformed card expiry", () => {
    expect(() => tokenExpiry(at("2027-01-15T10:00:00Z"), "3/27")).toThrow(CardExpiryFormatError);
  });

  it("never lies after six months or after the card's month", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2040, 0, 1) }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 20, max: 45 }),
        (issuedMs, month, yy) => {
          const issuedAt = DateTime.fromMillis(issuedMs, { zone: "utc" });
          const card = `${String(month).padStart(2, "0")}/${yy}`;
          const expiry = tokenExpiry(issuedAt, card);
          expect(expiry <= issuedAt.plus({ months: 6 })).toBe(true);
          expect(expiry <= DateTime.utc(2000 + yy, month).endOf("month")).toBe(true);
          expect(
            expiry.equals(issuedAt.plus({ months: 6 })) ||
              expiry.equals(DateTime.utc(2000 + yy, month).endOf("month")),
          ).toBe(true);
        },
      ),
    );
  });
});

describe("tokenStatus / isChargeable / expiringSoon", () => {
  const token: TokenLifecycle = {
    issuedAt: at("2027-01-15T10:00:00Z"),
    expiresAt: at("2027-07-15T10:00:00Z"),
    deactivatedAt: null,
    unusableAt: null,
  };

  it.each([
    ["active before expiry", token, "2027-07-15T09:59:59.999Z", "active"],
    ["expired at the expiry instant", token, "2027-07-15T10:00:00.000Z", "expired"],
    [
      "deactivated",
      { ...token, deactivatedAt: at("2027-03-01T00:00:00Z") },
      "2027-03-01T00:00:00.000Z",
      "deactivated",
    ],
    [
      "not yet deactivated",
      { ...token, deactivatedAt: at("2027-03-01T00:00:00Z") },
      "2027-02-28T23:59:59.999Z",
      "active",
    ],
    [
      "unusable",
      { ...token, unusableAt: at("2027-02-01T00:00:00Z") },
      "2027-02-02T00:00:00.000Z",
      "unusable",
    ],
    [
      "deactivated wins over unusable and expired",
      { ...token, deactivatedAt: at("2027-03-01T00:00:00Z"), unusableAt: at("2027-02-01T00:00:00Z") },
      "2027-08-01T00:00:00.000Z",
      "deactivated",
    ],
    [
      "unusable wins over expired",
      { ...token, unusableAt: at("2027-02-01T00:00:00Z") },
      "2027-08-01T00:00:00.000Z",
      "unusable",
    ],
  ] as const)("%s", (_, pm, now, status) => {
    expect(tokenStatus(pm, at(now))).toBe(status);
    expect(isChargeable(pm, at(now))).toBe(status === "active");
  });

  it.each([
    ["2027-06-30T09:59:59.999Z", false],
    ["2027-07-01T10:00:00.000Z", true],
    ["2027-07-15T09:59:59.999Z", true],
    ["2027-07-15T10:00:00.000Z", false],
  ])("with the default 14-day window, at %s expiringSoon is %s", (now, soon) => {
    expect(expiringSoon(token, at(now))).toBe(soon);
  });

  it("takes another window, and never flags a deactivated token", () => {
    expect(expiringSoon(token, at("2027-06-15T10:00:00Z"), Duration.fromObject({ days: 30 }))).toBe(true);
    const deactivated = { ...token, deactivatedAt: at("2027-07-01T00:00:00Z") };
    expect(expiringSoon(deactivated, at("2027-07-10T00:00:00Z"))).toBe(false);
  });
});
