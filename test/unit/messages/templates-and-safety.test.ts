import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createMessageRenderer, type MessageModel } from "../../../src/messages/render/index.js";
import { UnknownCurrencyError } from "../../../src/money/index.js";
import { AMOUNT, input, MODELS, visible } from "./fixtures.js";

const SCRIPT = "<script>alert(1)</script>";
const folders: string[] = [];

/** A merchant's templates folder holding the given files (name relative to it). */
function overrides(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "message-templates-"));
  folders.push(dir);
  for (const [name, body] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), body);
  }
  return dir;
}

afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("escaping", () => {
  it("escapes a malicious customer name in HTML and keeps it as written in the text", async () => {
    for (const language of ["en", "ar"] as const) {
      const message = await createMessageRenderer().render(
        input(MODELS.receipt, language, { customer: { name: SCRIPT, email: "f@example.qa" } }),
      );
      expect(message.html).not.toContain("<script");
      expect(message.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
      expect(message.text).toContain(SCRIPT);
    }
  });

  it("escapes merchant and plan names inside attributes and text", async () => {
    const message = await createMessageRenderer().render(
      input({ ...MODELS.receipt, planName: 'Gold "<b>' }, "en", {
        merchant: {
          name: 'A"><img src=x onerror=alert(1)>',
          logoUrl: "https://cdn.example.qa/l.png",
          supportEmail: null,
        },
      }),
    );
    expect(message.html).toContain('alt="A&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"');
    expect(message.html).toContain("Gold &quot;&lt;b&gt;");
    expect(message.html).not.toContain("<img src=x");
    expect(message.subject).toContain('A"><img src=x onerror=alert(1)>');
  });

  it("escapes a line's description in HTML and keeps it as written in the text", async () => {
    const line = { kind: "item" as const, description: 'Setup <b>"&"</b>', quantity: 2, amount: AMOUNT };
    for (const language of ["en", "ar"] as const) {
      const message = await createMessageRenderer().render(
        input({ ...MODELS.receipt, lines: [line] }, language),
      );
      expect(message.html).toContain("<bdi>Setup &lt;b&gt;&quot;&amp;&quot;&lt;/b&gt; × 2</bdi>");
      expect(message.html).not.toContain("<b>");
      expect(visible(message.text)).toContain('Setup <b>"&"</b> × 2: ');
    }
  });

  it("refuses links that are not http(s) rather than putting them in a button", async () => {
    const renderer = createMessageRenderer();
    await expect(
      renderer.render(input({ ...MODELS.payment_due, payUrl: "javascript:alert(1)" }, "en")),
    ).rejects.toThrow(/payUrl .* is not an http\(s\) URL/);
    await expect(
      renderer.render(
        input(MODELS.receipt, "en", { merchant: { name: "A", logoUrl: "data:x", supportEmail: null } }),
      ),
    ).rejects.toThrow(/logoUrl/);
  });

  it("keeps a subject on one line whatever a value holds", async () => {
    const message = await createMessageRenderer().render(
      input({ ...MODELS.receipt, receiptNumber: "RCT-1\r\nBcc: x@evil.example" }, "en"),
    );
    expect(message.subject).not.toMatch(/[\r\n]/);
  });
});

describe("bad input", () => {
  const renderer = createMessageRenderer();

  it.each([
    [
      "an unknown kind",
      input({ ...MODELS.receipt, kind: "spam" } as unknown as MessageModel, "en"),
      RangeError,
    ],
    ["an unknown language", input(MODELS.receipt, "fr" as "en"), RangeError],
    ["an unknown time zone", input(MODELS.receipt, "en", { timeZone: "Mars/Olympus" }), RangeError],
    ["a date that does not parse", input({ ...MODELS.receipt, periodEnd: "30/11/2026" }, "en"), RangeError],
    [
      "an unknown currency",
      input({ ...MODELS.receipt, amount: { minor: 1, currency: "QQQ" } }, "en"),
      UnknownCurrencyError,
    ],
  ])("refuses %s", async (_, bad, error) => {
    await expect(renderer.render(bad)).rejects.toThrow(error);
  });

  it("refuses a templates folder that does not exist", () => {
    expect(() => createMessageRenderer({ templatesDir: "/nonexistent/message-templates" })).toThrow(
      /does not exist/,
    );
  });
});

describe("merchant templates", () => {
  it("override file by file: one replaced file, the rest built in", async () => {
    const builtIn = await createMessageRenderer().render(input(MODELS.receipt, "en"));
    const dir = overrides({ "en/receipt.subject.eta": "Your Acme receipt: <%= it.msg.amount %>\n" });
    const renderer = createMessageRenderer({ templatesDir: dir });
    const message = await renderer.render(input(MODELS.receipt, "en"));
    expect(message.subject).toBe("Your Acme receipt: QAR 1,234.50");
    expect(message.text).toBe(builtIn.text);
    expect(message.html).toBe(builtIn.html.replace(builtIn.subject, message.subject));
    const arabic = await renderer.render(input(MODELS.receipt, "ar"));
    expect(arabic.subject).toBe((await createMessageRenderer().render(input(MODELS.receipt, "ar"))).subject);
  });

  it("override the shared layout under the built-in body, still escaped", async () => {
    const dir = overrides({
      "ar/layout.html.eta":
        '<html lang="ar" dir="rtl"><body><h6><%= it.customer.name %></h6><%~ it.body %></body></html>',
    });
    const message = await createMessageRenderer({ templatesDir: dir }).render(
      input(MODELS.receipt, "ar", { customer: { name: SCRIPT, email: "f@example.qa" } }),
    );
    expect(message.html).toMatch(/^<html lang="ar" dir="rtl"><body><h6>&lt;script&gt;/);
    expect(message.html).toContain(">عرض الإيصال</a>");
  });

  it("names the file of a broken template", async () => {
    const dir = overrides({ "en/receipt.text.eta": "<%= it.nothing.here %>" });
    await expect(
      createMessageRenderer({ templatesDir: dir }).render(input(MODELS.receipt, "en")),
    ).rejects.toThrow(/receipt\.text\.eta/);
  });

  it("cannot reach outside the templates folders", async () => {
    const dir = overrides({ "en/receipt.text.eta": '<%~ include("../../../etc/passwd") %>' });
    await expect(
      createMessageRenderer({ templatesDir: dir }).render(input(MODELS.receipt, "en")),
    ).rejects.toThrow(/outside the templates folder/);
  });

  it("compiles each file once and keeps it for the renderer's life", async () => {
    const dir = overrides({ "en/receipt.subject.eta": "First" });
    const renderer = createMessageRenderer({ templatesDir: dir });
    expect((await renderer.render(input(MODELS.receipt, "en"))).subject).toBe("First");
    writeFileSync(path.join(dir, "en/receipt.subject.eta"), "Second");
    expect((await renderer.render(input(MODELS.receipt, "en"))).subject).toBe("First");
    expect(
      (await createMessageRenderer({ templatesDir: dir }).render(input(MODELS.receipt, "en"))).subject,
    ).toBe("Second");
  });
});
