import { contract, type RouteMetadata } from '@spa/contract';
import { generateOpenApi } from '@ts-rest/open-api';

/**
 * Without a URL (the checked-in docs/openapi.json) the server is the spec's `{base_url}`, a variable whose default
 * is a local server; the running app passes its public URL.
 */
const servers = (serverUrl?: string) =>
  serverUrl
    ? [{ url: serverUrl, description: 'This server' }]
    : [{
        url: '{base_url}',
        description: 'Your API base URL, as given by the operator (paths start with /v1)',
        variables: { base_url: { default: 'http://localhost:3000', description: 'Scheme, host and port, without /v1' } },
      }];

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
          'Authenticate with `Authorization: Bearer sk_live_{id}_{secret}` or `X-Api-Key`. Preview endpoints may change before release.',
        contact: { name: 'Partner support', email: 'partners@example.com' },
        license: { name: 'Proprietary', url: 'https://example.com/terms' },
      },
      servers: servers(serverUrl),
      security: [{ bearerAuth: [] }, { apiKeyHeader: [] }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer sk_live_{id}_{secret}' },
          apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-Api-Key', description: 'The same key; Bearer wins when both are sent' },
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
        const tag = route.path.includes('/availability/') ? 'availability'
          : route.path.includes('/bookings') && route.method === 'POST' ? 'bookings'
          : route.path.includes('/customers') ? 'customers'
          : route.path.includes('/treatments') ? 'treatments'
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
  return document;
}
