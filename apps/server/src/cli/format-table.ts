/**
 * A plain text table with a header row and aligned columns, for reading in a terminal (no index column).
 * `details` adds indented lines under a row: long or repeated values (scopes, therapists offered a booking)
 * go there, so the table stays within 100 columns.
 */
export function formatTable(rows: Record<string, string | number>[], details?: (index: number) => string[]): string {
  const [first] = rows;
  if (!first) return '';
  const columns = Object.keys(first);
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [
    line(columns.map((c) => c.toUpperCase())),
    ...rows.flatMap((r, i) => [
      line(columns.map((c) => String(r[c] ?? ''))),
      ...(details?.(i) ?? []).map((detail) => `    ${detail}`),
    ]),
  ].join('\n');
}
