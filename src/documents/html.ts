import { escapeHtml } from "../text/index.js";
import { type DocumentContent, documentContent, type Field, type Stack, type Text } from "./content.js";
import type { DocumentLanguage, DocumentModel } from "./model.js";

/**
 * A document as one standalone, printable HTML page: inline CSS, no script, nothing fetched but
 * the merchant's logo. Every text is escaped; left-to-right values sit in dir="ltr" spans and what
 * people typed in <bdi>, so neither turns around inside Arabic. The CSS uses logical sides (start,
 * end), so the one sheet lays out English left to right and Arabic right to left; amounts alone
 * keep to the right of their column in both, where their decimals line up.
 */

function text(value: Text): string {
  if (value.dir === "auto") return `<bdi>${escapeHtml(value.text)}</bdi>`;
  return `<span dir="${value.dir}">${escapeHtml(value.text)}</span>`;
}

/**
 * The main language's text, and under it the English of a bilingual label, smaller. The English
 * block keeps the page's direction, so it lines up with the Arabic above it; only its words are
 * isolated left to right, so a full stop stays at their end.
 */
function stack(label: Stack): string {
  return label
    .map((part, i) => {
      const lang = part.dir === "rtl" ? "ar" : "en";
      if (i === 0) return `<span class="main" lang="${lang}">${escapeHtml(part.text)}</span>`;
      return `<span class="sub" lang="${lang}"><bdi dir="${part.dir}">${escapeHtml(part.text)}</bdi></span>`;
    })
    .join("");
}

const field = (f: Field) => `<div class="field"><dt>${stack(f.label)}</dt><dd>${text(f.value)}</dd></div>`;

/** Only a web address or an embedded image: a javascript: URL in the settings must not reach a page. */
const SAFE_LOGO = /^(https?:\/\/|data:image\/(png|jpeg|gif|webp|svg\+xml);base64,)/i;

function header(c: DocumentContent): string {
  const { merchant } = c;
  const logo =
    merchant.logoUrl !== null && SAFE_LOGO.test(merchant.logoUrl)
      ? `<img class="logo" src="${escapeHtml(merchant.logoUrl)}" alt="">`
      : "";
  const address = merchant.address.map((line) => `<div>${text(line)}</div>`).join("");
  return `<header>
<div class="merchant">${logo}<div class="name">${text(merchant.name)}</div><div class="muted">${address}</div>${
    merchant.taxId === null ? "" : `<dl class="tax-id">${field(merchant.taxId)}</dl>`
  }</div>
<div class="heading"><h1>${stack(c.title)}</h1><dl>${c.facts.map(field).join("")}</dl></div>
</header>`;
}

function table(c: DocumentContent): string {
  const rows = c.rows
    .map(
      (row) =>
        `<tr><td>${stack(row.description)}${row.detail === null ? "" : `<div class="detail">${text(row.detail)}</div>`}</td><td class="amount">${text(row.amount)}</td></tr>`,
    )
    .join("\n");
  const totals = c.totals
    .map(
      (t) =>
        `<tr class="${t.grand ? "grand" : "total"}"><th scope="row">${stack(t.label)}</th><td class="amount">${text(t.amount)}</td></tr>`,
    )
    .join("\n");
  return `<table class="lines">
<thead><tr><th scope="col">${stack(c.columns.description)}</th><th scope="col" class="amount">${stack(c.columns.amount)}</th></tr></thead>
<tbody>
${rows}
</tbody>
<tfoot>
${totals}
</tfoot>
</table>`;
}

const STYLE = `
@page { size: A4; margin: 14mm; }
* { box-sizing: border-box; }
html { background: #eef0f3; }
body { margin: 0; padding: 32px 16px; color: #1d2430; font: 14px/1.5 "IBM Plex Sans", "IBM Plex Sans Arabic", "Segoe UI", Tahoma, Arial, sans-serif; }
.page { max-width: 800px; margin: 0 auto; background: #fff; padding: 48px 52px; border-radius: 6px; box-shadow: 0 1px 4px rgba(20, 30, 50, .12); }
header { display: flex; justify-content: space-between; gap: 32px; padding-bottom: 24px; border-bottom: 3px solid #1f4e79; }
.logo { display: block; max-height: 56px; max-width: 200px; margin-bottom: 10px; }
.name { font-size: 18px; font-weight: 700; }
.muted, .detail, .sub, dt { color: #5b6676; }
.heading { text-align: end; }
h1 { margin: 0 0 8px; font-size: 30px; line-height: 1.2; color: #1f4e79; letter-spacing: .02em; }
h1 .sub { font-size: 16px; letter-spacing: 0; }
.sub { display: block; font-size: .8em; font-weight: 400; }
dl { margin: 0; }
.field { display: flex; gap: 12px; justify-content: space-between; align-items: baseline; }
.heading .field { justify-content: flex-end; }
.field dt { font-size: 12px; }
.field dd { margin: 0; font-weight: 600; }
.tax-id { margin-top: 6px; }
.tax-id .field { justify-content: flex-start; }
.customer { margin: 28px 0; }
.customer .who { font-weight: 600; }
.label { font-size: 12px; text-transform: uppercase; letter-spacing: .06em; color: #5b6676; margin-bottom: 4px; }
.label .sub { text-transform: none; letter-spacing: 0; }
table { width: 100%; border-collapse: collapse; }
th { text-align: start; font-weight: 600; }
thead th { font-size: 12px; color: #5b6676; border-bottom: 1px solid #cfd6df; padding: 8px 0; }
tbody td { padding: 12px 0; border-bottom: 1px solid #e6eaef; vertical-align: top; }
.detail { font-size: 12px; }
.amount { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; padding-inline-start: 24px; }
tfoot th, tfoot td { padding: 6px 0; font-weight: 400; }
tfoot th { text-align: end; }
tfoot tr:first-child th, tfoot tr:first-child td { padding-top: 14px; }
tr.grand th, tr.grand td { font-size: 17px; font-weight: 700; border-top: 2px solid #1d2430; padding-top: 10px; }
.sections { display: grid; grid-template-columns: repeat(auto-fill, minmax(260px, 1fr)); gap: 24px 40px; margin-top: 32px; }
.sections h2 { margin: 0 0 8px; font-size: 13px; color: #1f4e79; text-transform: uppercase; letter-spacing: .06em; }
.sections h2 .sub { text-transform: none; letter-spacing: 0; }
.sections .field { padding: 3px 0; border-bottom: 1px dotted #d7dde4; }
footer { margin-top: 40px; padding-top: 16px; border-top: 1px solid #e6eaef; color: #5b6676; text-align: center; }
[lang="ar"] { font-family: "IBM Plex Sans Arabic", "Noto Sans Arabic", "Segoe UI", Tahoma, Arial, sans-serif; }
@media print {
  html, body { background: #fff; padding: 0; }
  .page { max-width: none; padding: 0; box-shadow: none; border-radius: 0; }
}
`;

export function renderDocumentHtml(model: DocumentModel, options: { language: DocumentLanguage }): string {
  const c = documentContent(model, options.language);
  const title = `${c.title.map((part) => part.text).join(" / ")} ${model.number} – ${model.merchant.name}`;
  const sections = c.sections
    .map((s) => `<section><h2>${stack(s.heading)}</h2><dl>${s.fields.map(field).join("")}</dl></section>`)
    .join("\n");
  return `<!doctype html>
<html lang="${c.lang}" dir="${c.dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main class="page">
${header(c)}
<section class="customer"><div class="label">${stack(c.customer.label)}</div>${
    c.customer.name === null ? "" : `<div class="who">${text(c.customer.name)}</div>`
  }<div>${text(c.customer.email)}</div></section>
${table(c)}
<div class="sections">
${sections}
</div>
<footer>${stack(c.note)}</footer>
</main>
</body>
</html>
`;
}
