/** Text laid out for a terminal (the CLI's human output, the demo's summary). */
export { escapeHtml } from "./escape-html.js";
export { fields, table } from "./table.js";
