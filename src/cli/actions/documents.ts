import { writeFile } from "node:fs/promises";
import path from "node:path";
import type { Command } from "commander";
import {
  documentLinks,
  findCreditNote,
  findReceipt,
  type IssuedDocument,
  printDocument,
} from "../../customer-documents/index.js";
import type { Db } from "../../db/index.js";
import type { DocumentLanguage } from "../../documents/index.js";
import type { Cli } from "../cli.js";
import { CliError } from "../errors.js";
import { linkSigner } from "../link-signer.js";
import { fields } from "../output.js";
import { presentDocument } from "../present.js";

/**
 * `billing receipts show` and `billing credit-notes show`: a document's number, amounts and the
 * signed links its customer opens it by; with --pdf, the PDF the customer gets, written to a file.
 * The database alone; the token key that signs the links is read as `charges show` reads it.
 */

interface ShowOptions {
  pdf?: string;
  lang?: DocumentLanguage;
}

async function show(
  cli: Cli,
  find: (db: Db) => Promise<IssuedDocument>,
  options: ShowOptions,
  command: Command,
): Promise<void> {
  const output = cli.output(command);
  const shown = await cli.withDatabase(async (ctx) => {
    const document = await find(ctx.db);
    const signer = await linkSigner(ctx.config);
    if (signer === null) {
      output.note(
        "note: links are not shown: no token key to sign them with (TOKEN_ENCRYPTION_KEY, or the running engine's TOKEN_DEV_KEY_FILE)",
      );
    }
    let pdfFile: string | null = null;
    if (options.pdf !== undefined) {
      const printed = await printDocument(ctx, document.kind, document.id, "pdf", options.lang);
      if (!printed) throw new CliError(`${document.number} could not be read back to print it`);
      pdfFile = path.resolve(options.pdf);
      await writeFile(pdfFile, printed.body).catch((error: unknown) => {
        throw new CliError(
          `--pdf: cannot write ${pdfFile}: ${error instanceof Error ? error.message : error}`,
        );
      });
    }
    return presentDocument(document, signer && documentLinks(signer, document), pdfFile);
  });
  output.result(shown, () => fields(shown));
}

export function showReceipt(cli: Cli, chargeId: string, options: ShowOptions, command: Command) {
  return show(cli, (db) => findReceipt(db, chargeId), options, command);
}

export function showCreditNote(cli: Cli, refundId: string, options: ShowOptions, command: Command) {
  return show(cli, (db) => findCreditNote(db, refundId), options, command);
}
