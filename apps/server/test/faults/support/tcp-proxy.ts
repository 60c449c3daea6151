import { createServer, type Server, type Socket, connect } from 'node:net';
import type { AddressInfo } from 'node:net';

interface ProxyOptions {
  /** Every byte from the database reaches the client this much later. */
  downstreamDelayMs?: number;
}

/**
 * A TCP proxy in front of PostgreSQL that a test can cut: `refuse()` closes every open connection and refuses
 * new ones (as a database that went away), `accept()` lets connections through again, `freeze()` stops every
 * open connection dead without closing it (a partition: no reset, no end, bytes go nowhere), and `stall()` does
 * that to new connections too (a database that hangs).
 */
export class TcpProxy {
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  readonly #pairs = new Set<[Socket, Socket]>();
  #refusing = false;
  #stalled = false;

  private constructor(target: { host: string; port: number }, options: ProxyOptions) {
    this.#server = createServer((client) => {
      if (this.#refusing) return void client.destroy();
      if (this.#stalled) {
        // Accepted, then silence: the connection attempt of a client meets a database that never answers.
        this.#sockets.add(client);
        client.on('error', () => undefined);
        client.on('close', () => this.#sockets.delete(client));
        return void client.pause();
      }
      const upstream = connect(target.port, target.host);
      for (const socket of [client, upstream]) {
        this.#sockets.add(socket);
        socket.on('error', () => undefined);
        socket.on('close', () => {
          this.#sockets.delete(socket);
          client.destroy();
          upstream.destroy();
        });
      }
      const pair: [Socket, Socket] = [client, upstream];
      this.#pairs.add(pair);
      client.on('close', () => this.#pairs.delete(pair));
      client.pipe(upstream);
      if (!options.downstreamDelayMs) upstream.pipe(client);
      // A far database: what it sends arrives later, in order (timers of one duration fire in the order set).
      else upstream.on('data', (chunk: Buffer) => setTimeout(() => client.write(chunk), options.downstreamDelayMs));
    });
  }

  static async start(target: { host: string; port: number }, options: ProxyOptions = {}): Promise<TcpProxy> {
    const proxy = new TcpProxy(target, options);
    await new Promise<void>((resolve) => proxy.#server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get port(): number {
    return (this.#server.address() as AddressInfo).port;
  }

  /** A database URL of the same server and database, through this proxy. */
  urlFor(databaseUrl: string): string {
    const url = new URL(databaseUrl);
    url.hostname = '127.0.0.1';
    url.port = String(this.port);
    return url.toString();
  }

  refuse(): void {
    this.#refusing = true;
    for (const socket of this.#sockets) socket.destroy();
  }

  /** Open connections stop carrying bytes and stay open; new ones pass as usual. */
  freeze(): void {
    for (const [client, upstream] of this.#pairs) {
      client.unpipe(upstream);
      upstream.unpipe(client);
      client.pause();
      upstream.pause();
    }
    this.#pairs.clear();
  }

  /** A database that hangs: open connections freeze, new ones are accepted and never answered. */
  stall(): void {
    this.#stalled = true;
    this.freeze();
  }

  accept(): void {
    this.#refusing = false;
    this.#stalled = false;
  }

  async close(): Promise<void> {
    this.refuse();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
