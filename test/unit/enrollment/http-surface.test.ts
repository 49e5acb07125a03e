import { describe, expect, it } from "vitest";
import { gatewayCallbackUrls } from "../../../src/enrollment/index.js";
import { resultPage } from "../../../src/http/index.js";

describe("gatewayCallbackUrls", () => {
  it("gives the three URLs to configure in the merchant account", () => {
    expect(gatewayCallbackUrls("https://billing.example.com")).toEqual({
      successUrl: "https://billing.example.com/gateway/return/success",
      failureUrl: "https://billing.example.com/gateway/return/failure",
      webhookUrl: "https://billing.example.com/gateway/webhook",
    });
  });

  it("keeps a path prefix and drops trailing slashes", () => {
    expect(gatewayCallbackUrls("https://example.com/billing/").successUrl).toBe(
      "https://example.com/billing/gateway/return/success",
    );
  });

  it.each(["ftp://example.com", "https://example.com/?a=1", "not a url"])("refuses %s", (url) => {
    expect(() => gatewayCallbackUrls(url)).toThrow();
  });
});

describe("resultPage", () => {
  it("is right to left in Arabic", () => {
    const page = resultPage("success", "ar");
    expect(page).toContain('<html lang="ar" dir="rtl">');
    expect(page).toContain("تم حفظ بطاقتك");
  });

  it("is left to right in English", () => {
    expect(resultPage("failure", "en")).toContain('<html lang="en" dir="ltr">');
  });

  it("links back to the page that started the checkout, escaped, and nowhere without one", () => {
    expect(resultPage("success", "en", 'https://shop.example.qa/billing/portal?a=1&b="2"')).toContain(
      '<a href="https://shop.example.qa/billing/portal?a=1&amp;b=&quot;2&quot;">Back to your account</a>',
    );
    expect(resultPage("failure", "ar", "https://shop.example.qa/portal")).toContain(
      '<a href="https://shop.example.qa/portal">العودة إلى حسابك</a>',
    );
    expect(resultPage("success", "en")).not.toContain("<a ");
  });
});
