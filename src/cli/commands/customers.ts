import { type Command, Option } from "commander";
import { CUSTOMER_LANGUAGES } from "../../customers/languages.js";
import type { Actions } from "../actions.js";

export function registerCustomers(program: Command, action: Actions): void {
  const customers = program.command("customers").description("who pays");
  const load = () => import("../actions/customers.js");

  customers
    .command("create")
    .description("create a customer; an existing e-mail gives back that customer (created: false)")
    .requiredOption("--email <email>", "unique per customer")
    .option("--name <name>", "name for the checkout page and invoices")
    .option("--phone <phone>", "with country code, e.g. +97455555555")
    .addOption(new Option("--language <code>", "language of the checkout page").choices(CUSTOMER_LANGUAGES))
    .action(action(load, "create"));

  customers.command("list").description("list customers, oldest first").action(action(load, "list"));
}
