export { type EventInput, type RecordedEvent, recordEvent } from "./record.js";
