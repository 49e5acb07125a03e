import type { Command } from "commander";
import type { MessageKind } from "../../billing/index.js";
import {
  type CustomerLanguage,
  createCustomer,
  getCustomer,
  listCustomers,
  updateCustomer,
} from "../../customers/index.js";
import { CLI_ACTOR, type Cli } from "../cli.js";
import { CliError, EXIT } from "../errors.js";
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

export async function show(cli: Cli, id: string, _options: unknown, command: Command): Promise<void> {
  const customer = await cli.withDatabase((ctx) => getCustomer(ctx, id));
  if (!customer) throw new CliError(`no customer with id ${id}`);
  const shown = presentCustomer(customer);
  cli.output(command).result(shown, () => fields(shown));
}

interface UpdateOptions {
  name?: string;
  phone?: string;
  language?: CustomerLanguage;
  timeZone?: string;
  optOut?: MessageKind[];
  optIn?: MessageKind[];
}

/** The opt-outs after the command: the customer's, plus --opt-out, less --opt-in; unchanged without either. */
function optOutsAfter(
  current: readonly MessageKind[],
  { optOut, optIn }: UpdateOptions,
): MessageKind[] | undefined {
  if (optOut === undefined && optIn === undefined) return undefined;
  const both = (optOut ?? []).filter((kind) => optIn?.includes(kind));
  if (both.length > 0) throw new CliError(`--opt-out and --opt-in both name ${both.join(", ")}`, EXIT.usage);
  return [...current.filter((kind) => !optIn?.includes(kind)), ...(optOut ?? [])];
}

/** Who the customer is (name, phone) and how they are written to: language, time zone, opt-outs. */
export async function update(cli: Cli, id: string, options: UpdateOptions, command: Command): Promise<void> {
  const { name, phone, language, timeZone, optOut, optIn } = options;
  if ([name, phone, language, timeZone, optOut, optIn].every((option) => option === undefined)) {
    throw new CliError(
      "nothing to change: give --name, --phone, --language, --time-zone, --opt-out or --opt-in",
      EXIT.usage,
    );
  }
  const customer = await cli.withDatabase(async (ctx) => {
    const current = await getCustomer(ctx, id);
    if (!current) return null;
    const change = {
      name,
      phone,
      language,
      time_zone: timeZone,
      message_opt_outs: optOutsAfter(current.messageOptOuts, options),
    };
    return updateCustomer(ctx, id, change, { actor: CLI_ACTOR });
  });
  if (!customer) throw new CliError(`no customer with id ${id}`);
  const shown = presentCustomer(customer);
  cli.output(command).result(shown, () => fields(shown));
}
