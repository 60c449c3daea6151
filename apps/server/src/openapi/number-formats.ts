import { integerFormats } from './integer-formats.js';

/**
 * Gives every number of the document a format: integers theirs (integer-formats.ts), and every `number` (amounts
 * of money, percentages) `double`. Measured: oapi-codegen makes a number without a format a `float32` (7 digits:
 * 1000000.5 became 1000000.5 by luck, 12345678.9 did not), and both it (1.12) and openapi-generator-plus's Java
 * generators refuse `decimal` outright; `double` is a float64 in Go, a double in C# and a Double in Java.
 */
export function numberFormats<T>(value: T): T {
  return doubles(integerFormats(value));
}

function doubles<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item: unknown) => doubles(item)) as T;
  if (value === null || typeof value !== 'object') return value;
  const copy = Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([key, child]) => [key, doubles(child)]),
  );
  if (copy.type === 'number' && copy.format === undefined) copy.format = 'double';
  return copy as T;
}
