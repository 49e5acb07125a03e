import { createServer } from "node:net";

function listenOn(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(undefined));
    server.listen(port, "127.0.0.1", () => {
      const address = server.address();
      const bound = typeof address === "object" && address ? address.port : undefined;
      server.close(() => resolve(bound));
    });
  });
}

/**
 * `preferred` if nothing listens on it on 127.0.0.1, otherwise a port the OS reports free. Another
 * process may take the port before we bind it; the server's start then fails and says so.
 */
export async function findFreePort(preferred?: number): Promise<number> {
  if (preferred !== undefined && (await listenOn(preferred)) !== undefined) return preferred;
  const port = await listenOn(0);
  if (port === undefined) throw new Error("no free TCP port on 127.0.0.1");
  return port;
}
