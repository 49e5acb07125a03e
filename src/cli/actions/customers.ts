import type { Command } from "commander";
import { type CustomerLanguage, createCustomer, listCustomers } from "../../customers/index.js";
import { CLI_ACTOR, type Cli } from "../cli.js";
import { fields, table } from "../output.js";
import { allPages } from "../paging.js";
import { presentCustomer } from "../present.js";

/** `billing customers …`: who pays, through the customers service. */

export async function create(
  cli: Cli,
  options: { email: string; name?: string; phone?: string; language?: CustomerLanguage },
  command: Command,
): Promise<void> {
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
}

export async function list(cli: Cli, _options: unknown, command: Command): Promise<void> {
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
}
