import type { AddressInfo } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer, type SMTPServerOptions } from "smtp-server";

/**
 * A real SMTP server on 127.0.0.1 for the message tests: plain SMTP (no STARTTLS), any sender,
 * no login. Each accepted message is kept parsed (headers, text, HTML). What it answers can be
 * changed between sends: accept, 451 (try later) after DATA, or 550 (mailbox unavailable) at RCPT;
 * it can hold the reply to DATA until released, and be stopped and started again on its port; or
 * it can refuse every login.
 */

export type SmtpMode = "accept" | "451" | "550";

export interface TestSmtpServer {
  readonly port: number;
  readonly url: string;
  /** Messages accepted, in order. */
  readonly accepted: ParsedMail[];
  /** DATA transfers completed by clients, accepted or not. */
  readonly dataReceived: number;
  mode: SmtpMode;
  /** From now on, replies to DATA wait for release(). */
  hold(): void;
  release(): void;
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
}

function replyError(code: number, text: string): Error {
  return Object.assign(new Error(text), { responseCode: code });
}

export interface SmtpServerOptions {
  /** Offers login on the plain connection and refuses every user (535). */
  refuseLogin?: boolean;
}

export async function startSmtpServer({
  refuseLogin = false,
}: SmtpServerOptions = {}): Promise<TestSmtpServer> {
  const accepted: ParsedMail[] = [];
  let dataReceived = 0;
  let held: Promise<void> | null = null;
  let release: () => void = () => undefined;
  let port = 0;
  let server: SMTPServer | undefined;

  const state = { mode: "accept" as SmtpMode };
  const options: SMTPServerOptions = {
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    closeTimeout: 100,
    ...(refuseLogin
      ? {
          allowInsecureAuth: true,
          onAuth: (_auth, _session, callback) => callback(new Error("Invalid username or password")),
        }
      : {}),
    onRcptTo(_address, _session, callback) {
      if (state.mode === "550") callback(replyError(550, "5.1.1 Mailbox unavailable"));
      else callback();
    },
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", async () => {
        dataReceived += 1;
        if (state.mode === "451") {
          callback(replyError(451, "4.3.0 Temporary failure, try again later"));
          return;
        }
        await held;
        const mail = await simpleParser(Buffer.concat(chunks));
        accepted.push(mail);
        callback(null, `2.0.0 Ok: queued as T${accepted.length}`);
      });
    },
  };

  const listen = async () => {
    server = new SMTPServer(options);
    server.on("error", () => undefined);
    await new Promise<void>((resolve, reject) => {
      server?.server.once("error", reject);
      server?.listen(port, "127.0.0.1", () => resolve());
    });
    port = (server.server.address() as AddressInfo).port;
  };
  await listen();

  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    accepted,
    get dataReceived() {
      return dataReceived;
    },
    get mode() {
      return state.mode;
    },
    set mode(mode: SmtpMode) {
      state.mode = mode;
    },
    hold() {
      held = new Promise((resolve) => {
        release = resolve;
      });
    },
    release() {
      release();
      held = null;
    },
    stop: () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
    start: listen,
  };
}
