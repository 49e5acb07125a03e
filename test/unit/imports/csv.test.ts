import { describe, expect, it } from "vitest";
import { readCsvFile, readImportCsv } from "../../../src/imports/index.js";

const TOO_MANY = "5 columns where the header has 4 (put a value holding a comma in double quotes)";

describe("readCsvFile", () => {
  it("reads cells by the header's names; a short row leaves the rest undefined", () => {
    const file = readCsvFile("Email,Name,Phone,Plan\na@x.qa,A,,p1\nb@x.qa\n");
    expect(file.header).toEqual(["email", "name", "phone", "plan"]);
    expect(file.records).toEqual([
      { line: 2, record: { email: "a@x.qa", name: "A", phone: "", plan: "p1" } },
      { line: 3, record: { email: "b@x.qa", name: undefined, phone: undefined, plan: undefined } },
    ]);
  });

  it("marks a row with more cells than the header instead of reading it by position", () => {
    const file = readCsvFile('email,name,phone,plan\na@x.qa,Too,many,columns,p1\nb@x.qa,"Al-Thani, B",,p2\n');
    expect(file.records[0]).toMatchObject({ line: 2, error: TOO_MANY });
    // A comma inside double quotes is part of the value.
    expect(file.records[1]).toEqual({
      line: 3,
      record: { email: "b@x.qa", name: "Al-Thani, B", phone: "", plan: "p2" },
    });
  });
});

describe("readImportCsv", () => {
  it("rejects a row with more cells than the header by its line, and reads the others", () => {
    const token = "tok_0123456789";
    const rows = readImportCsv(
      ["email,plan,card_token,card_last4", `a@x.qa,Pro,${token},1111`, `b@x.qa,Pro,x,${token}2,1111`].join(
        "\n",
      ),
    );
    expect(rows).toEqual([
      { line: 2, row: expect.objectContaining({ email: "a@x.qa", card_token: token }), error: null },
      { line: 3, row: null, error: TOO_MANY },
    ]);
  });
});
