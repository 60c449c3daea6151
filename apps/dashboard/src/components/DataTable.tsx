import type { Key, ReactNode } from 'react';

/** One column: its header, and what each row shows under it. */
export interface Column<Row> {
  /** The header, and the name each cell is shown under when a narrow screen stacks a row into a card. */
  label: string;
  /** A header for screen readers only (a column of buttons): its cells show no name on a narrow screen. */
  labelHidden?: boolean;
  /** `num` right-aligns figures on a wide screen. */
  className?: string;
  cell: (row: Row) => ReactNode;
}

/**
 * A table that reads as one on a wide screen and as a card per row on a narrow one (styles.css, `.stacked`):
 * each cell then stands on its own line beside its column's name, instead of the table scrolling sideways.
 * The explicit roles keep the table's semantics for screen readers once the narrow layout changes the elements'
 * CSS display, which some browsers (Safari among them) take as a sign that they are not a table.
 */
export function DataTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
}: {
  caption: string;
  columns: Column<Row>[];
  rows: Row[];
  rowKey: (row: Row) => Key;
}) {
  return (
    <div className="table-wrap">
      <table className="stacked" role="table">
        <caption className="visually-hidden">{caption}</caption>
        <thead role="rowgroup">
          <tr role="row">
            {columns.map((column) => (
              <th key={column.label} scope="col" role="columnheader" className={column.className}>
                {column.labelHidden ? <span className="visually-hidden">{column.label}</span> : column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody role="rowgroup">
          {rows.map((row) => (
            <tr key={rowKey(row)} role="row">
              {columns.map((column) => (
                <td
                  key={column.label}
                  role="cell"
                  className={column.className}
                  data-label={column.labelHidden ? undefined : column.label}
                >
                  <div className="cell">{column.cell(row)}</div>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
