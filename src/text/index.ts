/** Text laid out for a terminal (the CLI's human output, the demo's summary). */
export { fields, table } from "./table.js";
