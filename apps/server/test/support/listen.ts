import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestContext } from './test-app.js';

/**
 * Runs before the app sees a request, as a slow network or a proxy in front of it would: it may wait (the app then
 * answers late, unless the client hung up meanwhile) or answer itself by ending `res` (the app never sees it).
 */
export type BeforeApp = (req: IncomingMessage, res: ServerResponse) => Promise<void> | void;

/** The app on an ephemeral port, so a client (the SDK) talks real HTTP through its own fetch. */
export async function listen(ctx: TestContext, before?: BeforeApp): Promise<{ server: Server; baseUrl: string }> {
  const server = before
    ? createServer((req, res) => {
        void Promise.resolve(before(req, res)).then(() => {
          if (!res.writableEnded && !res.destroyed) ctx.app(req, res);
        });
      })
    : createServer(ctx.app);
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { server, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
