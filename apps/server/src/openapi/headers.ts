import { REQUEST_ID } from '@spa/contract';

/**
 * The headers of the API, declared once in `components.headers` (answers) and `components.parameters` (the
 * request id a client may send), typed as the server writes them.
 */
export const HEADERS = {
  'X-Request-Id': {
    description:
      'The request id: yours when you sent a sane X-Request-Id, else a new UUID. Quote it to support; it is also the request_id of an error body.',
    schema: { type: 'string', maxLength: 128 },
    example: REQUEST_ID,
  },
  'Retry-After': {
    description: 'Seconds to wait before sending the request again (429 and 503)',
    schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 2147483647 },
    example: 12,
  },
  'Idempotent-Replayed': {
    description:
      '`true` on the answer to a repeat of an earlier request with the same external_id: the body is the original booking. Absent otherwise.',
    schema: { type: 'boolean' },
    example: true,
  },
  'X-RateLimit-Limit': {
    description:
      'Requests allowed per minute in the rate-limit category of this route, for this key (sent when rate limiting is enforced)',
    schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 2147483647 },
    example: 600,
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left in the current one-minute window (sent when rate limiting is enforced)',
    schema: { type: 'integer', format: 'int32', minimum: 0, maximum: 2147483647 },
    example: 599,
  },
  'X-RateLimit-Reset': {
    description: 'When the current window ends, in Unix seconds (sent when rate limiting is enforced)',
    schema: { type: 'integer', format: 'int64', minimum: 0 },
    example: 1906876860,
  },
} as const;

export type HeaderName = keyof typeof HEADERS;

export const headerRef = (name: HeaderName) => ({ $ref: `#/components/headers/${name}` });

/** Which headers an answer carries: the request id always, rate limits once the key is known, and per status. */
export function headersOf(status: string, replay: boolean): Record<string, { $ref: string }> {
  const names: HeaderName[] = ['X-Request-Id'];
  if (status !== '401') names.push('X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset');
  if (status === '429' || status === '503') names.push('Retry-After');
  if (replay) names.push('Idempotent-Replayed');
  return Object.fromEntries(names.map((name) => [name, headerRef(name)]));
}
