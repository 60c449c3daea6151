import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestContext } from './test-app.js';

/** The app on an ephemeral port, so a client (the SDK) talks real HTTP through its own fetch. */
export async function listen(ctx: TestContext): Promise<{ server: Server; baseUrl: string }> {
  const server: Server = ctx.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { server, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
