/**
 * A server that cannot listen on the port a setting chose names the setting to change, e.g.
 * "PORT 3000 is in use (listen EADDRINUSE: address already in use 0.0.0.0:3000); set PORT to a free
 * port". Any other failure is returned as it is.
 */
export function explainListenError(error: unknown, variable: string, port: number): unknown {
  if (!(error instanceof Error) || (error as NodeJS.ErrnoException).code !== "EADDRINUSE") return error;
  return new Error(`${variable} ${port} is in use (${error.message}); set ${variable} to a free port`, {
    cause: error,
  });
}
