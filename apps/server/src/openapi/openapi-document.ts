import { contract, type RouteMetadata } from '@spa/contract';
import { generateOpenApi } from '@ts-rest/open-api';

/**
 * Without a URL (the checked-in docs/openapi.json) the server is `{base_url}`, a variable whose default
 * is a local server; the running app passes its public URL.
 */
const servers = (serverUrl?: string) =>
  serverUrl
    ? [{ url: serverUrl, description: 'This server' }]
    : [
        {
          url: '{base_url}',
          description: 'Your API base URL, as given by the operator (paths start with /v1)',
          variables: {
            base_url: { default: 'http://localhost:3000', description: 'Scheme, host and port, without /v1' },
          },
        },
      ];

/** The OpenAPI 3.0 document, generated from the contract: the contract is the only source. */
export function buildOpenApiDocument(serverUrl?: string) {
  const document = generateOpenApi(
    contract,
    {
      openapi: '3.0.3',
      info: {
        title: 'Partner Booking API',
        version: '1.0.0',
        description:
          'Read spa venues, treatments, customers and availability, and book and cancel treatments, from your own servers. ' +
          'Authenticate with `Authorization: Bearer sk_live_{id}_{secret}` or `X-Api-Key`. Preview endpoints may change before release.\n\n' +
          'Retrying: every GET is safe to retry. Creating a booking is safe to retry only with the same `external_id` (the original comes back, 200 with `Idempotent-Replayed: true`). ' +
          'Cancelling is safe to retry (a repeat answers 422 `BOOKING_ALREADY_CANCELLED`). Retry 429 and 503 after `Retry-After`, and 5xx or network errors with backoff; never retry other 4xx unchanged.',
        contact: { name: 'Partner support', email: 'partners@example.com' },
        license: { name: 'Proprietary', url: 'https://example.com/terms' },
      },
      servers: servers(serverUrl),
      security: [{ bearerAuth: [] }, { apiKeyHeader: [] }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer sk_live_{id}_{secret}' },
          apiKeyHeader: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Api-Key',
            description: 'The same key; Bearer wins when both are sent',
          },
        },
      },
      tags: [
        { name: 'venues', description: 'Venues of your organisation' },
        { name: 'treatments', description: 'Treatment catalogue' },
        { name: 'customers', description: 'Customers and their booking history' },
        { name: 'availability', description: 'Bookable slots (preview)' },
        { name: 'bookings', description: 'Create and cancel bookings (preview)' },
      ],
    },
    {
      setOperationId: 'concatenated-path',
      jsonQuery: false,
      operationMapper: (operation, route) => {
        const metadata = route.metadata as RouteMetadata | undefined;
        const tag = route.path.includes('/availability/')
          ? 'availability'
          : route.path.includes('/bookings') && route.method === 'POST'
            ? 'bookings'
            : route.path.includes('/customers')
              ? 'customers'
              : route.path.includes('/treatments')
                ? 'treatments'
                : 'venues';
        return {
          ...operation,
          tags: [tag],
          description: `${operation.description ?? ''}\n\nRequired scope: \`${metadata?.scope ?? 'none'}\`.`.trim(),
          ...(metadata?.preview ? { 'x-preview': true, 'x-release-status': 'preview' } : {}),
        };
      },
    },
  );
  return describeResponses(document);
}

type Document = ReturnType<typeof generateOpenApi>;
interface Response {
  description: string;
  headers?: Record<string, unknown>;
  content?: { 'application/json'?: { schema?: { description?: string } } };
}

const header = (description: string, example: string) => ({ description, schema: { type: 'string' }, example });
const REQUEST_ID_HEADER = header(
  'The request id: yours when you sent a sane X-Request-Id, else a new UUID. Quote it to support.',
  '5b0e4a1c-3f5e-4a0b-9a53-0c1f0c2b8e11',
);

/**
 * @ts-rest/open-api describes each response by its status code alone ("409") and declares no headers; the
 * reference shows what the contract says instead: the schema's own description, and the headers every
 * answer (X-Request-Id), a replay (Idempotent-Replayed) and a 429 (Retry-After) carry.
 */
function describeResponses(document: Document): Document {
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(
      item as Record<string, { responses?: Record<string, Response> }>,
    )) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const described = response.content?.['application/json']?.schema?.description;
        if (response.description === status)
          response.description = described ?? (status === '201' ? 'Created' : 'Success');
        response.headers = { 'X-Request-Id': REQUEST_ID_HEADER, ...response.headers };
        if (status === '429') response.headers['Retry-After'] = header('Seconds to wait before the next request', '12');
        if (status === '200' && method === 'post' && path.endsWith('/bookings')) {
          response.headers['Idempotent-Replayed'] = header(
            '`true`: the booking of an earlier request with this external_id',
            'true',
          );
        }
      }
    }
  }
  return document;
}
