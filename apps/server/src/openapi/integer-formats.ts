const INT32 = { min: -(2 ** 31), max: 2 ** 31 - 1 };

/**
 * Gives every `type: integer` its `format`: int32 when its bounds fit in 32 bits, int64 otherwise (no maximum, or
 * one up to 2^53-1), so a Java or C# client picks a type that holds every value the server may send or take.
 */
export function integerFormats<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item: unknown) => integerFormats(item)) as T;
  if (value === null || typeof value !== 'object') return value;
  const copy = Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([key, child]) => [key, integerFormats(child)]),
  );
  if (copy.type === 'integer' && copy.format === undefined) {
    const { minimum, maximum } = copy as { minimum?: number; maximum?: number };
    const fits = minimum !== undefined && maximum !== undefined && minimum >= INT32.min && maximum <= INT32.max;
    copy.format = fits ? 'int32' : 'int64';
  }
  return copy as T;
}
