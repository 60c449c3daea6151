/**
 * The document as JSON text, with the responses of each operation in the order a generator should read them:
 * 201 before 200 (a booking create's normal result is the 201; the 200 is the replay), then the rest by status.
 * JSON.stringify cannot write it: a JavaScript object always lists integer-like keys such as "200" in ascending
 * order, so responses objects are written here with their keys in this order, everything else as JSON.stringify.
 */
export function serializeDocument(document: unknown): string {
  return `${write(document, '', false)}\n`;
}

const rank = (status: string) => (status === '201' ? 0 : 1);

function write(value: unknown, indent: string, responses: boolean): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => inner + write(item, inner, false)).join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, child]) => child !== undefined);
  if (entries.length === 0) return '{}';
  if (responses) entries.sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b));
  const lines = entries.map(
    ([key, child]) => `${inner}${JSON.stringify(key)}: ${write(child, inner, key === 'responses')}`,
  );
  return `{\n${lines.join(',\n')}\n${indent}}`;
}
