import { createServer, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { BODY_DEADLINE_MS } from './json-body.js';

export interface HttpServerOptions {
  port: number;
  host?: string;
  maxConnections: number;
  logger: Logger;
}

export interface HttpServer {
  server: Server;
  port: number;
  /**
   * Graceful stop: no new connections, idle keep-alive connections closed now, every request in flight
   * finishes with `Connection: close`. Resolves true once all connections are gone, false if `timeoutMs`
   * passed first (the remaining connections are then cut).
   */
  drain(timeoutMs: number): Promise<boolean>;
}

/** Limits of the listening socket (docs/decisions.md "Running in production"). */
export const HEADERS_TIMEOUT_MS = 10_000;
export const KEEP_ALIVE_TIMEOUT_MS = 5_000;

export async function startHttpServer(app: RequestListener, options: HttpServerOptions): Promise<HttpServer> {
  const server = createServer(
    {
      // Node checks the two timeouts below on this period; its default (30 s) would let a slow client linger.
      connectionsCheckingInterval: 1000,
      headersTimeout: HEADERS_TIMEOUT_MS,
      // Headers, then the body within 10 s (the app answers 408 first; this also covers bodies it never reads).
      requestTimeout: HEADERS_TIMEOUT_MS + BODY_DEADLINE_MS,
      keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    },
    app,
  );
  // Beyond this many open connections new ones are closed at once, before they cost a file descriptor for
  // long: the database pool and the logs keep theirs (an EMFILE towards PostgreSQL would turn into 503s).
  server.maxConnections = options.maxConnections;

  let draining = false;
  const open = new Set<ServerResponse>();
  // One listener shared by every response (`this`), not a closure per request.
  function closed(this: ServerResponse) {
    open.delete(this);
  }
  server.on('request', (_req, res: ServerResponse) => {
    if (draining) res.setHeader('Connection', 'close');
    open.add(res);
    res.once('close', closed);
  });
  // accept() failing (EMFILE) must not end the process: it is logged and the server keeps listening.
  server.on('error', (error: NodeJS.ErrnoException) => {
    if (error.syscall === 'accept') options.logger.error({ err: error }, 'accepting a connection failed');
  });

  await new Promise<void>((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? new PortInUseError(options.port, { cause: error }) : error);
    server.once('error', failed);
    server.listen(options.port, options.host, () => {
      server.off('error', failed);
      resolve();
    });
  });

  const drain = (timeoutMs: number) =>
    new Promise<boolean>((resolve) => {
      draining = true;
      for (const res of open) if (!res.headersSent) res.setHeader('Connection', 'close');
      const deadline = setTimeout(() => {
        server.closeAllConnections();
        resolve(false);
      }, timeoutMs);
      // A connection whose last response went out idles until closed: sweep those until none is left.
      const sweep = setInterval(() => server.closeIdleConnections(), 100);
      server.close(() => {
        clearTimeout(deadline);
        clearInterval(sweep);
        resolve(true);
      });
      server.closeIdleConnections();
    });

  return { server, port: (server.address() as AddressInfo).port, drain };
}

/** The port is taken: said in a sentence an operator acts on, not as `listen EADDRINUSE`. */
export class PortInUseError extends Error {
  constructor(port: number, options?: ErrorOptions) {
    super(`Port ${port} is already in use by another program: stop it, or set PORT to a free port`, options);
  }
}
