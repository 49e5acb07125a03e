/** Imports: subscriptions moving to us from another billing system, with their gateway card tokens. */

export { IMPORT_COLUMNS } from "./columns.js";
export { type CsvFile, CsvFileError, readCsvFile } from "./csv.js";
export {
  ImportFileError,
  type ImportRow,
  type ReadRow,
  readImportCsv,
} from "./import-row.js";
export {
  type ImportedRow,
  type ImportOptions,
  type ImportReport,
  type ImportStatus,
  importSubscriptions,
} from "./import-subscriptions.js";
