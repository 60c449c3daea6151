import { contract, type RouteMetadata, SHARED_RESPONSE, TAGS } from '@spa/contract';
import { generateOpenApi } from '@ts-rest/open-api';
import { type Components, hoistComponents, mapDiscriminators, type Schema, walkChildren } from './components.js';
import { exampleOf } from './examples.js';
import { HEADERS, headersOf } from './headers.js';
import { ERROR_BASES, Inheritance } from './inheritance.js';
import { numberFormats } from './number-formats.js';
import { enumsForGenerators } from './open-enums.js';
import { RETRY_PROMISE, webhooksOf } from './webhooks.js';
import { CONTRACT_VERSION } from '../lib/contract-version.js';

/**
 * The served document names the server itself. The checked-in one names no real server: NSwag bakes `servers[0]`
 * into a client as its base URL, so a local address there became the silent default of every C# client. Its one
 * entry is the operator's base URL as a variable whose default is in `.invalid` (RFC 6761: it never resolves), so a
 * client that was not given a base URL fails at its first call instead of calling a machine by chance.
 */
const servers = (serverUrl?: string) =>
  serverUrl
    ? [{ url: serverUrl, description: 'This server' }]
    : [
        {
          url: '{base_url}',
          description:
            'Your API base URL, as given by the operator (paths start with /v1); `pnpm start` serves http://127.0.0.1:3000',
          variables: {
            base_url: {
              default: 'https://partner-api.invalid',
              description: 'Scheme, host and port, without /v1: set it, the default never resolves',
            },
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
        version: CONTRACT_VERSION,
        description:
          'Read spa venues, treatments, customers and availability, and book and cancel treatments, from your own servers. ' +
          'Authenticate with `Authorization: Bearer sk_live_{id}_{secret}` or `X-Api-Key`. Preview endpoints may change before release. ' +
          'Send your own `X-Request-Id` (1 to 128 characters of A-Z a-z 0-9 . _ : -) to find a request in the logs: the answer echoes it.\n\n' +
          'Instants are UTC to the second (`2030-06-04T08:00:00Z`); dates are venue-local `YYYY-MM-DD`. ' +
          'Amounts are major units with at most the decimals of their currency. ' +
          'The examples work with the demo data a first `pnpm start` loads and its printed demo key. ' +
          'Retrying: every GET is safe to retry. Creating a booking is safe to retry only with the same `external_id` (the original comes back, 200 with `Idempotent-Replayed: true`). ' +
          'Cancelling is safe to retry (a repeat answers 422 `BOOKING_ALREADY_CANCELLED`). Retry 429 and 503 after `Retry-After`, and 5xx or network errors with backoff; never retry other 4xx unchanged.\n\n' +
          'Errors: every error body has `error` and `request_id`. `error` is a fixed text per situation (the discriminator of the error schemas of a status): switch on it exactly. ' +
          'Versions: `info.version` is semver; a minor version only adds (an optional field, a value of an enum marked open to additions, an operation); ' +
          'a breaking change moves the major version after a deprecation announced with the `Deprecation` and `Sunset` headers.',
        contact: { name: 'Partner support', email: 'partners@example.com' },
        license: { name: 'MIT', url: 'https://opensource.org/license/mit' },
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
        ...Object.entries(TAGS).map(([name, description]) => ({ name, description })),
        {
          name: 'webhooks',
          description: `Events POSTed to your endpoint when a booking changes (preview). ${RETRY_PROMISE}`,
        },
      ],
    },
    {
      setOperationId: false,
      jsonQuery: false,
      operationMapper: (operation, route) => {
        const metadata = route.metadata as RouteMetadata | undefined;
        if (!metadata?.tag || !metadata.scope) throw new Error(`${route.path}: metadata needs a scope and a tag`);
        return {
          ...operation,
          operationId: metadata.operationId,
          tags: [metadata.tag],
          description: `${operation.description ?? ''}\n\nRequired scope: \`${metadata.scope}\`.`.trim(),
          ...(metadata.preview ? { 'x-preview': true, 'x-release-status': 'preview' } : {}),
        };
      },
    },
  );
  return enumsForGenerators(numberFormats(shareResponses(shareParameters(describeResponses(nameSchemas(document))))));
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
  /** Set from the contract's shared() mark while the document is built; the response then moves to components. */
  [SHARED_RESPONSE]?: string;
}
interface Parameter {
  name: string;
  in: string;
  schema?: Schema;
}
interface Operation {
  parameters?: (Parameter | { $ref: string })[];
  requestBody?: { description?: string; required?: boolean; content?: Record<string, Media> };
  responses?: Record<string, Response | { $ref: string }>;
}

const operationsOf = (document: Document) =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item as Record<string, Operation>).map(([method, operation]) => ({ path, method, operation })),
  );

const responsesOf = (operation: Operation) => Object.entries(operation.responses ?? {}) as [string, Response][];

const isSuccess = (status: string) => status.startsWith('2');

/**
 * Every schema the contract named goes to `components.schemas` once, referred to wherever it is used. A response's
 * own description and example (what doc() gave it in the contract) move to the response and its media type,
 * where OpenAPI reads them, so the schema itself can be a plain reference. A request body and every success
 * answer without an example of its own get one composed from the schema's examples (demo data), so mock servers
 * and "Try it out" have realistic values. The webhooks' event schemas join the same components.
 */
function nameSchemas(document: Document): Document {
  const components: Components = {};
  const hoist = (schema: Schema) => hoistComponents(schema, components);
  for (const { operation } of operationsOf(document)) {
    for (const parameter of operation.parameters ?? [])
      if ('schema' in parameter && parameter.schema) parameter.schema = hoist(parameter.schema);
    const body = operation.requestBody?.content?.['application/json'];
    if (operation.requestBody && body?.schema) {
      const { description, ...schema } = body.schema;
      operation.requestBody = {
        description: typeof description === 'string' ? description : 'JSON body',
        required: true,
        content: { 'application/json': body },
      };
      body.schema = hoist(optionalDefaults(schema));
      body.example ??= exampleOf(body.schema, components);
    }
    for (const [status, response] of responsesOf(operation)) {
      const media = response.content?.['application/json'];
      if (!media?.schema) continue;
      const { description, example, [SHARED_RESPONSE]: shared, ...schema } = media.schema;
      if (typeof description === 'string' && response.description === status) response.description = description;
      if (typeof shared === 'string') response[SHARED_RESPONSE] = shared;
      if (example !== undefined) media.example = example;
      media.schema = hoist(schema);
      if (isSuccess(status)) media.example ??= exampleOf(media.schema, components);
    }
  }
  for (const { operation } of operationsOf(document)) {
    for (const [, response] of responsesOf(operation)) {
      const media = response.content?.['application/json'];
      if (media?.schema) media.schema = mapDiscriminators(media.schema, components);
    }
  }
  const webhooks = webhooksOf(components);
  for (const [name, schema] of Object.entries(components)) components[name] = mapDiscriminators(schema, components);
  inherit(document, components);
  const sorted = Object.fromEntries(Object.entries(components).sort(([a], [b]) => a.localeCompare(b)));
  const existing = (document.components ?? {}) as Record<string, unknown>;
  return { ...document, components: { ...existing, schemas: sorted }, 'x-webhooks': webhooks };
}

/**
 * Discriminated unions as base schemas with subclasses (inheritance.ts): a named union (`Availability`) becomes its
 * own base; an error status of ERROR_BASES gets one base for all its fixed-text bodies, so a route that answers one
 * of several bodies there answers the base, and one that answers a single body still answers that body's class.
 */
function inherit(document: Document, components: Components): void {
  const inheritance = new Inheritance(components);
  for (const [name, schema] of Object.entries(components)) {
    if (schema.oneOf && schema.discriminator) {
      inheritance.adopt(name, typeof schema.description === 'string' ? schema.description : name, schema);
    }
  }
  for (const { operation } of operationsOf(document)) {
    for (const [status, response] of responsesOf(operation)) {
      const base = ERROR_BASES[status];
      const media = response.content?.['application/json'];
      if (!base || !media?.schema) continue;
      if (media.schema.oneOf && media.schema.discriminator) {
        media.schema = inheritance.adopt(base.name, base.description, media.schema);
      } else if (typeof media.schema.$ref === 'string') {
        inheritance.adoptMember(base.name, base.description, media.schema.$ref.split('/').at(-1)!, 'error');
      }
    }
  }
  inheritance.apply();
}

/**
 * A request field with a default (guest_count, cancelled_by) may be left out, but @anatine/zod-openapi lists it as
 * required, so a generated client would make the partner send it: it leaves `required` here, in every object of a
 * request body.
 */
function optionalDefaults(schema: Schema): Schema {
  const walked = walkChildren(schema, optionalDefaults);
  const properties = walked.properties as Record<string, Schema> | undefined;
  const required = walked.required as string[] | undefined;
  if (!properties || !required) return walked;
  const left = required.filter((name) => properties[name]?.default === undefined);
  const { required: _all, ...rest } = walked;
  return left.length > 0 ? { ...rest, required: left } : rest;
}

/**
 * @ts-rest/open-api describes a response without a described schema by its status code alone ("200") and declares
 * no headers; each answer gets the headers the server sends with it, by reference to `components.headers`.
 */
function describeResponses(document: Document): Document {
  for (const { path, method, operation } of operationsOf(document)) {
    for (const [status, response] of responsesOf(operation)) {
      if (response.description === status) response.description = status === '201' ? 'Created' : 'Success';
      const replay = status === '200' && method === 'post' && path.endsWith('/bookings');
      response.headers = headersOf(status, replay);
    }
  }
  const components = (document.components ?? {}) as Record<string, unknown>;
  return { ...document, components: { ...components, headers: HEADERS } };
}

/** `venue_id` → `VenueId`: the component name of a parameter. */
const pascal = (name: string) => name.replace(/(^|[_-])(\w)/g, (_, _sep: string, c: string) => c.toUpperCase());

/**
 * Every parameter goes to `components.parameters` under its name (the same `venue_id` wherever it is used). Two
 * different forms of one name are a contract bug. The optional X-Request-Id request header is described in
 * `info` and on every answer, not declared on each operation: oapi-codegen 1.12 then gave every method a params
 * struct for it alone, and its client dereferences that struct without a nil check (a `nil` panicked).
 */
function shareParameters(document: Document): Document {
  const parameters: Record<string, unknown> = {};
  for (const { path, operation } of operationsOf(document)) {
    const refs = (operation.parameters ?? []).map((parameter) => {
      if ('$ref' in parameter) return parameter;
      const name = `${pascal(parameter.name)}`;
      const known = parameters[name];
      if (known && JSON.stringify(known) !== JSON.stringify(parameter)) {
        throw new Error(`${path}: parameter ${parameter.name} differs from another operation's; describe it once`);
      }
      parameters[name] = parameter;
      return { $ref: `#/components/parameters/${name}` };
    });
    if (refs.length > 0) operation.parameters = refs;
    else delete operation.parameters;
  }
  const components = (document.components ?? {}) as Record<string, unknown>;
  return { ...document, components: { ...components, parameters } } as Document;
}

/** Responses the contract marked shared() go to `components.responses` once, referred to by each operation. */
function shareResponses(document: Document): Document {
  const responses: Record<string, Response> = {};
  for (const { path, operation } of operationsOf(document)) {
    for (const [status, response] of responsesOf(operation)) {
      const { [SHARED_RESPONSE]: name, ...rest } = response;
      if (!name) continue;
      const known = responses[name];
      if (known && JSON.stringify(known) !== JSON.stringify(rest)) {
        throw new Error(`${path} ${status}: shared response ${name} differs from another operation's`);
      }
      responses[name] = rest;
      operation.responses![status] = { $ref: `#/components/responses/${name}` };
    }
  }
  const components = (document.components ?? {}) as Record<string, unknown>;
  const sorted = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
  return { ...document, components: { ...components, responses: sorted } } as Document;
}
