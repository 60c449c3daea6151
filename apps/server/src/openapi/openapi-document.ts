import { contract, REQUEST_ID, type RouteMetadata, TAGS } from '@spa/contract';
import { generateOpenApi } from '@ts-rest/open-api';
import { type Components, hoistComponents, mapDiscriminators, type Schema } from './components.js';

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
          'Instants are UTC to the second (`2030-06-04T08:00:00Z`); dates are venue-local `YYYY-MM-DD`. ' +
          'Amounts are major units with at most the decimals of their currency. ' +
          'The examples work with the demo data a first `pnpm start` loads and its printed demo key. ' +
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
      tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    },
    {
      setOperationId: 'concatenated-path',
      jsonQuery: false,
      operationMapper: (operation, route) => {
        const metadata = route.metadata as RouteMetadata | undefined;
        if (!metadata?.tag || !metadata.scope) throw new Error(`${route.path}: metadata needs a scope and a tag`);
        return {
          ...operation,
          tags: [metadata.tag],
          description: `${operation.description ?? ''}\n\nRequired scope: \`${metadata.scope}\`.`.trim(),
          ...(metadata.preview ? { 'x-preview': true, 'x-release-status': 'preview' } : {}),
        };
      },
    },
  );
  return describeResponses(nameSchemas(document));
}

type Document = ReturnType<typeof generateOpenApi>;

interface Media {
  schema?: Schema;
  example?: unknown;
}
interface Response {
  description: string;
  headers?: Record<string, unknown>;
  content?: { 'application/json'?: Media };
}
interface Operation {
  parameters?: { schema?: Schema }[];
  requestBody?: { description?: string; required?: boolean; content?: Record<string, Media> };
  responses?: Record<string, Response>;
}

const operationsOf = (document: Document) =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item as Record<string, Operation>).map(([method, operation]) => ({ path, method, operation })),
  );

/**
 * Every schema the contract named goes to `components.schemas` once, referred to wherever it is used. A response's
 * own description and example (what doc() gave it in the contract) move to the response and its media type,
 * where OpenAPI reads them, so the schema itself can be a plain reference.
 */
function nameSchemas(document: Document): Document {
  const components: Components = {};
  const hoist = (schema: Schema) => hoistComponents(schema, components);
  for (const { operation } of operationsOf(document)) {
    for (const parameter of operation.parameters ?? [])
      if (parameter.schema) parameter.schema = hoist(parameter.schema);
    const body = operation.requestBody?.content?.['application/json'];
    if (operation.requestBody && body?.schema) {
      operation.requestBody = { description: 'JSON body', required: true, content: { 'application/json': body } };
      body.schema = hoist(body.schema);
    }
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      const media = response.content?.['application/json'];
      if (!media?.schema) continue;
      const { description, example, ...schema } = media.schema;
      if (typeof description === 'string' && response.description === status) response.description = description;
      if (example !== undefined) media.example = example;
      media.schema = hoist(schema);
    }
  }
  for (const { operation } of operationsOf(document)) {
    for (const response of Object.values(operation.responses ?? {})) {
      const media = response.content?.['application/json'];
      if (media?.schema) media.schema = mapDiscriminators(media.schema, components);
    }
  }
  const sorted = Object.fromEntries(Object.entries(components).sort(([a], [b]) => a.localeCompare(b)));
  const existing = (document.components ?? {}) as Record<string, unknown>;
  return { ...document, components: { ...existing, schemas: sorted } };
}

const header = (description: string, example: string) => ({ description, schema: { type: 'string' }, example });
const REQUEST_ID_HEADER = header(
  'The request id: yours when you sent a sane X-Request-Id, else a new UUID. Quote it to support.',
  REQUEST_ID,
);
const RETRY_AFTER = header('Seconds to wait before the next request', '12');

/**
 * @ts-rest/open-api describes a response without a described schema by its status code alone ("200") and declares
 * no headers; the reference shows the headers every answer (X-Request-Id), a replay (Idempotent-Replayed), a 429
 * and a 503 (Retry-After) carry.
 */
function describeResponses(document: Document): Document {
  for (const { path, method, operation } of operationsOf(document)) {
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      if (response.description === status) response.description = status === '201' ? 'Created' : 'Success';
      response.headers = { 'X-Request-Id': REQUEST_ID_HEADER, ...response.headers };
      if (status === '429' || status === '503') response.headers['Retry-After'] = RETRY_AFTER;
      if (status === '200' && method === 'post' && path.endsWith('/bookings')) {
        response.headers['Idempotent-Replayed'] = header(
          '`true`: the booking of an earlier request with this external_id',
          'true',
        );
      }
    }
  }
  return document;
}
