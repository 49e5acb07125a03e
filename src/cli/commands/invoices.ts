import type { Command } from "commander";
import type { Actions } from "../actions.js";
import { uuid } from "../options.js";

export function registerInvoices(program: Command, action: Actions): void {
  const invoices = program
    .command("invoices")
    .description("gateway invoices sent for charges still unpaid when dunning ended");
  const load = () => import("../actions/invoices.js");

  invoices
    .command("list")
    .description("list invoices, oldest first")
    .option("--subscription <id>", "only this subscription's", uuid)
    .action(action(load, "list"));

  invoices
    .command("show")
    .description("show one invoice")
    .argument("<id>", "invoice id", uuid)
    .action(action(load, "show"));
}
