import { type Command, Option } from "commander";
import { CUSTOMER_LANGUAGES, createCustomer, listCustomers } from "../../customers/index.js";
import { CLI_ACTOR, type Cli } from "../cli.js";
import { fields, table } from "../output.js";
import { allPages } from "../paging.js";
import { presentCustomer } from "../present.js";

export function registerCustomers(program: Command, cli: Cli): void {
  const customers = program.command("customers").description("who pays");

  customers
    .command("create")
    .description("create a customer; an existing e-mail gives back that customer (created: false)")
    .requiredOption("--email <email>", "unique per customer")
    .option("--name <name>", "name for the checkout page and invoices")
    .option("--phone <phone>", "with country code, e.g. +97455555555")
    .addOption(new Option("--language <code>", "language of the checkout page").choices(CUSTOMER_LANGUAGES))
    .action(async (options, command: Command) => {
      const { customer, created } = await cli.withDatabase((ctx) =>
        createCustomer(
          ctx,
          { email: options.email, name: options.name, phone: options.phone, language: options.language },
          { actor: CLI_ACTOR },
        ),
      );
      const shown = { ...presentCustomer(customer), created };
      const output = cli.output(command);
      if (!created) output.note(`a customer with e-mail ${customer.email} already existed; it is unchanged`);
      output.result(shown, () => fields(shown));
    });

  customers
    .command("list")
    .description("list customers, oldest first")
    .action(async (_options, command: Command) => {
      const customers = await cli.withDatabase((ctx) =>
        allPages(async (after) => {
          const page = await listCustomers(ctx, { limit: 500, after });
          return { rows: page.customers, next: page.nextCursor };
        }),
      );
      const shown = customers.map(presentCustomer);
      cli
        .output(command)
        .result({ data: shown }, () => table(shown, ["id", "email", "name", "phone", "language"]));
    });
}
