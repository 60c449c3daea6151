import { connect, type Socket } from 'node:net';

/** A keep-alive HTTP/1.1 connection driven by hand, to control exactly when each byte of a request is sent. */
export class RawConnection {
  readonly socket: Socket;
  readonly closed: Promise<void>;
  #received = '';
  #waiters: (() => void)[] = [];

  constructor(port: number) {
    this.socket = connect(port, '127.0.0.1');
    this.socket.on('data', (chunk: Buffer) => {
      this.#received += chunk.toString();
      for (const wake of this.#waiters.splice(0)) wake();
    });
    this.socket.on('error', () => undefined);
    this.closed = new Promise((resolve) => this.socket.once('close', () => resolve()));
  }

  write(text: string): void {
    this.socket.write(text);
  }

  /**
   * Resolves once the server has answered `100 Continue` to a request sent with `Expect: 100-continue`: Node's
   * server sends it as it hands the request to the app, so the request is then in flight, whatever the load.
   */
  async continued(): Promise<void> {
    const interim = 'HTTP/1.1 100 Continue\r\n\r\n';
    while (this.#received.length < interim.length) await this.#next();
    if (!this.#received.startsWith(interim)) throw new Error(`expected 100 Continue; received: ${this.#received}`);
    this.#received = this.#received.slice(interim.length);
  }

  /** Resolves with the next complete response (status, headers, body) once its Content-Length has arrived. */
  async response(): Promise<{ status: number; headers: Record<string, string>; body: string }> {
    for (;;) {
      const end = this.#received.indexOf('\r\n\r\n');
      if (end >= 0) {
        const [statusLine, ...lines] = this.#received.slice(0, end).split('\r\n');
        const headers = Object.fromEntries(
          lines.map((line) => [
            line.slice(0, line.indexOf(':')).toLowerCase(),
            line.slice(line.indexOf(':') + 1).trim(),
          ]),
        );
        const length = Number(headers['content-length'] ?? 0);
        if (this.#received.length >= end + 4 + length) {
          const body = this.#received.slice(end + 4, end + 4 + length);
          this.#received = this.#received.slice(end + 4 + length);
          return { status: Number(statusLine!.split(' ')[1]), headers, body };
        }
      }
      await this.#next();
    }
  }

  /** Waits for more bytes; rejects if the connection closes first. */
  #next(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#waiters.push(resolve);
      void this.closed.then(() => reject(new Error(`connection closed; received: ${this.#received}`)));
    });
  }
}
