import type { EngineContext } from "../../context/index.js";
import {
  type DocumentLinks,
  documentLinks,
  documentsOfCharges,
  type IssuedDocument,
} from "../../customer-documents/index.js";

/**
 * What the charge page shows of the charge's documents: its receipt and its refunds' credit notes,
 * each by number with the signed links its customer got, so support opens exactly what was sent.
 */

export interface LinkedDocument {
  number: string;
  links: DocumentLinks;
}

export interface ChargeDocumentLinks {
  receipt: LinkedDocument | null;
  creditNotes: LinkedDocument[];
}

export async function chargeDocumentLinks(
  ctx: Pick<EngineContext, "db" | "vault" | "publicUrl">,
  chargeId: string,
): Promise<ChargeDocumentLinks> {
  const { receipt, creditNotes } = (await documentsOfCharges(ctx.db, [chargeId]))(chargeId);
  const linked = (document: IssuedDocument): LinkedDocument => ({
    number: document.number,
    links: documentLinks(ctx, document),
  });
  return { receipt: receipt && linked(receipt), creditNotes: creditNotes.map(linked) };
}
