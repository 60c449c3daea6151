/**
 * One set of result parsers for both drivers (pg and PGlite), so the same query returns the same
 * JavaScript values on either: dates, times and instants as text (no JS Date, whose local-time
 * semantics would corrupt calendar dates), bigint and numeric as numbers.
 */
export const OID = {
  int8: 20,
  numeric: 1700,
  date: 1082,
  time: 1083,
  timestamp: 1114,
  timestamptz: 1184,
} as const;

const asText = (value: string) => value;
const asNumber = (value: string) => Number(value);

export const typeParsers: Record<number, (value: string) => unknown> = {
  [OID.int8]: asNumber,
  [OID.numeric]: asNumber,
  [OID.date]: asText,
  [OID.time]: asText,
  [OID.timestamp]: asText,
  [OID.timestamptz]: asText,
};
