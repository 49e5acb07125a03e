import { describe, expect, it } from "vitest";
import { readEnrollmentCsv } from "../../../src/cli/bulk-enroll.js";
import { EXIT } from "../../../src/cli/errors.js";

describe("readEnrollmentCsv", () => {
  it("numbers rows by the line they end on, skipping blank lines, header in any case", () => {
    const rows = readEnrollmentCsv(
      'Email, Name ,phone,PLAN\na@x.qa,A,,p1\n\nb@x.qa,"B\nB",+97455555555,p2\nc@x.qa\n',
      "f.csv",
    );
    expect(rows).toEqual([
      { line: 2, email: "a@x.qa", name: "A", phone: "", plan: "p1" },
      { line: 5, email: "b@x.qa", name: "B\nB", phone: "+97455555555", plan: "p2" },
      { line: 6, email: "c@x.qa", name: "", phone: "", plan: "" },
    ]);
  });

  it("carries the reason a row with more cells than the header cannot be read, for it to be rejected", () => {
    const rows = readEnrollmentCsv("email,name,phone,plan\nx@y.qa,Too,many,columns,p1\n", "f.csv");
    expect(rows).toEqual([
      {
        line: 2,
        email: "x@y.qa",
        name: "Too",
        phone: "many",
        plan: "columns",
        error: "5 columns where the header has 4 (put a value holding a comma in double quotes)",
      },
    ]);
  });

  it("stops before any row when a required column is missing", () => {
    expect(() => readEnrollmentCsv("email,name\na@x.qa,A\n", "f.csv")).toThrow(
      expect.objectContaining({
        exitCode: EXIT.usage,
        message: "--csv: f.csv has no plan column; the header must be email,name,phone,plan",
      }),
    );
  });

  it("refuses a file that is not CSV", () => {
    expect(() => readEnrollmentCsv('email,plan\n"a@x.qa,p1\n', "f.csv")).toThrow(
      /--csv: f.csv is not a readable CSV/,
    );
  });
});
