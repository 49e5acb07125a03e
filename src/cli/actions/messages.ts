import type { Command } from "commander";
import type { MessageKind, MessageStatus } from "../../billing/index.js";
import { getMessage, listMessages, resendMessage } from "../../messages/index.js";
import { presentMessage, presentMessageDetail } from "../../resources/message.js";
import { CLI_ACTOR, type Cli } from "../cli.js";
import { CliError } from "../errors.js";
import { fields, table } from "../output.js";

/**
 * `billing messages list|show|resend`: the e-mails written to customers, as the API shows them,
 * through the messages service; the database alone (a resend is sent by the engine's worker).
 */

export async function list(
  cli: Cli,
  options: { customer?: string; status?: MessageStatus; kind?: MessageKind; limit: number },
  command: Command,
): Promise<void> {
  const output = cli.output(command);
  const page = await cli.withDatabase(({ db }) =>
    listMessages(db, {
      customerId: options.customer,
      status: options.status,
      kind: options.kind,
      limit: options.limit,
    }),
  );
  const shown = page.messages.map(presentMessage);
  const hasMore = page.nextCursor !== null;
  if (hasMore) output.note(`older messages are not shown: raise --limit (now ${options.limit}, at most 500)`);
  output.result({ data: shown, has_more: hasMore }, () =>
    table(shown, ["id", "created_at", "to", "kind", "language", "status", "sent_at", "last_response"]),
  );
}

/** Its headers and the text body; the HTML body alone with --html (to pipe into a file or a browser). */
export async function show(
  cli: Cli,
  id: string,
  options: { html?: boolean },
  command: Command,
): Promise<void> {
  const message = await cli.withDatabase(({ db }) => getMessage(db, id));
  if (!message) throw new CliError(`no message with id ${id}`);
  const { text, html, ...headers } = presentMessageDetail(message);
  const unrendered = `(not rendered yet: the message worker renders it at its first attempt)`;
  cli
    .output(command)
    .result({ ...headers, text, html }, () =>
      options.html ? (html ?? unrendered) : [fields(headers), "", text ?? unrendered].join("\n"),
    );
}

/** A new pending message repeating this one, due now, recorded as asked for by the CLI. */
export async function resend(cli: Cli, id: string, _options: unknown, command: Command): Promise<void> {
  const copy = await cli.withDatabase((ctx) => resendMessage(ctx, id, CLI_ACTOR));
  if (!copy) throw new CliError(`no message with id ${id}`);
  const { text: _text, html: _html, ...shown } = presentMessageDetail(copy);
  cli.output(command).result(shown, () => fields(shown));
}
