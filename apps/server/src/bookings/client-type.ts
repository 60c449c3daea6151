import type { ClientType } from '../db/schema.js';

/** docs/api.md, "Booking": the lower-cased part before the dot names a known source, else `external`. */
const KNOWN = new Set(['hotel', 'agency', 'corporate']);

export function clientTypeOf(externalReference: string | null | undefined): ClientType {
  if (!externalReference) return 'external';
  const source = externalReference.split('.', 1)[0]!.toLowerCase();
  return KNOWN.has(source) ? (source as ClientType) : 'external';
}
