/**
 * A partner's webhook receiver, typed from the OpenAPI document: the event types are the `x-webhooks` payload
 * schemas of docs/openapi.json as openapi-typescript generates them (the repository keeps that output in
 * apps/server/test/openapi/clients/openapi-typescript.ts; in your project, `npx openapi-typescript openapi.json -o
 * openapi.d.ts`). The signature is checked with the `standardwebhooks` package on the raw body before anything is
 * parsed. apps/server/test/openapi/webhook-receiver.test.ts runs it against a real delivery of the server.
 *
 * Run it (Node 20.19+, from the repository root):
 *   SPA_WEBHOOK_SECRET=whsec_... PORT=4000 pnpm --filter @spa/server exec tsx ../../docs/examples/webhook-receiver.mts
 * and register http://127.0.0.1:4000/hooks as in docs/guides/webhooks.md ("Trying it locally").
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { Webhook } from 'standardwebhooks';
import type { components } from '../../apps/server/test/openapi/clients/openapi-typescript.js';

type Schemas = components['schemas'];
/** Every event of the document: its payload schemas are the ones named `...Event`, told apart by `type`. */
export type WebhookEvent = Schemas[Extract<keyof Schemas, `${string}Event`>];
export type WebhookEventType = WebhookEvent['type'];

/** The event types this receiver knows; the compiler fails when the document gains one that is not listed. */
const EVENT_TYPES = [
  'booking.created',
  'booking.awaiting_therapist',
  'booking.confirmed',
  'booking.cancelled',
  'booking.completed',
  'booking.no_show',
  'booking.rescheduled',
] as const satisfies readonly WebhookEventType[];
const allListed: Exclude<WebhookEventType, (typeof EVENT_TYPES)[number]> extends never ? true : never = true;
void allListed;

/** A verified delivery: its id (the same on every retry: deduplicate on it) and the typed event. */
export interface Delivery {
  id: string;
  event: WebhookEvent;
}

/**
 * Verifies a delivery (the raw body and its headers) and parses its event. Throws when the signature or the
 * timestamp does not hold, or when the event type is not one of the document's; an unknown type is what a newer
 * API version could send (the document says its enums are open), so the caller answers 2xx and ignores it.
 */
export function verifyDelivery(secret: string, rawBody: string, headers: IncomingHttpHeaders): Delivery {
  const payload = new Webhook(secret).verify(rawBody, headers as Record<string, string>) as { type?: unknown };
  if (!EVENT_TYPES.includes(payload.type as WebhookEventType)) {
    throw new UnknownEventType(String(payload.type));
  }
  return { id: String(headers['webhook-id']), event: payload as WebhookEvent };
}

export class UnknownEventType extends Error {
  override readonly name = 'UnknownEventType';
}

/**
 * Listens on `port` (0: any free one) for POSTs to /hooks: answers 400 to a delivery whose signature does not hold,
 * 204 to one it handed to `onDelivery` (or whose event type it does not know), after deduplicating on webhook-id.
 */
export async function startWebhookReceiver(options: {
  secret: string;
  port?: number;
  onDelivery: (delivery: Delivery) => void;
}) {
  const seen = new Set<string>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/hooks') return void res.writeHead(404).end();
      let delivery: Delivery;
      try {
        delivery = verifyDelivery(options.secret, Buffer.concat(chunks).toString('utf8'), req.headers);
      } catch (error) {
        return void res.writeHead(error instanceof UnknownEventType ? 204 : 400).end();
      }
      if (!seen.has(delivery.id)) {
        seen.add(delivery.id);
        options.onDelivery(delivery);
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Run directly: print each event's type and booking. */
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const secret = process.env.SPA_WEBHOOK_SECRET;
  if (!secret) throw new Error('Set SPA_WEBHOOK_SECRET to the endpoint secret (whsec_...)');
  const receiver = await startWebhookReceiver({
    secret,
    port: Number(process.env.PORT ?? 4000),
    onDelivery: ({ id, event }) => {
      // `event.type` narrows the union; every event carries the booking as GET /v1/bookings/{id} returns it.
      const { booking } = event.data;
      const fee = event.type === 'booking.cancelled' ? ` fee ${JSON.stringify(booking.cancellation?.fee)}` : '';
      const moved = event.type === 'booking.rescheduled' ? ` from ${event.data.previous_start_at}` : '';
      console.log(`${id} ${event.type} ${booking.id} ${booking.status}${fee}${moved}`);
    },
  });
  console.log(`listening on ${receiver.url}`);
}
