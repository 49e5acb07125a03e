import type { Command } from "commander";
import { publicUrlOf } from "../../config/index.js";
import { findCustomerByEmail, getCustomer } from "../../customers/index.js";
import { createPortalLink } from "../../portal/index.js";
import { CLI_ACTOR, type Cli } from "../cli.js";
import { CliError } from "../errors.js";
import { fields } from "../output.js";

/**
 * `billing portal-link --customer <id|email>`: a single-use link into the customer portal, made
 * with the URL the server is reached at (PUBLIC_URL, or the running engine's).
 */
export async function create(cli: Cli, options: { customer: string }, command: Command): Promise<void> {
  const link = await cli.withDatabase(async (ctx) => {
    const wanted = options.customer.trim();
    const customer = (await getCustomer(ctx, wanted)) ?? (await findCustomerByEmail(ctx, wanted));
    if (!customer)
      throw new CliError(`--customer: no customer with the id or e-mail ${JSON.stringify(wanted)}`);
    const made = await createPortalLink(
      { ...ctx, publicUrl: publicUrlOf(ctx.config) },
      { customerId: customer.id, actor: CLI_ACTOR },
    );
    return { customer_id: customer.id, url: made.url, expires_at: made.expiresAt.toUTC().toISO() };
  });
  cli.output(command).result(link, () => fields(link));
}
