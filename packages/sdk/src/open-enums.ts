import { ResponseValidationError } from '@ts-rest/core';

type Path = (string | number)[];

/** The parts of a zod issue this module reads (zod 3's `invalid_enum_value` and `invalid_literal`). */
interface Issue {
  code: string;
  path: Path;
  received?: unknown;
  options?: unknown[];
  expected?: unknown;
}

/** A value of an enum in an answer that this SDK's contract does not list, and where it was. */
export interface UnknownEnumValue {
  path: Path;
  value: string;
}

/**
 * The API's enums of answers are open: a minor version may add a value (docs/api.md, "Versions"), and an SDK older
 * than it must keep working. When an answer failed its contract only because some enums held a string the contract
 * does not list, returns the answer with each such value swapped for one the contract lists (so the rest of the
 * answer can still be checked) and where they were; undefined when anything else is wrong with it.
 */
export function withKnownEnumValues(
  error: unknown,
  body: unknown,
): { body: unknown; unknown: UnknownEnumValue[] } | undefined {
  if (!(error instanceof ResponseValidationError)) return undefined;
  const issues = (error.cause as { issues?: Issue[] } | undefined)?.issues ?? [];
  const unknown: UnknownEnumValue[] = [];
  const swapped = structuredClone(body);
  for (const issue of issues) {
    const known =
      issue.code === 'invalid_enum_value'
        ? issue.options?.[0]
        : issue.code === 'invalid_literal'
          ? issue.expected
          : undefined;
    if (typeof issue.received !== 'string' || typeof known !== 'string') return undefined;
    unknown.push({ path: issue.path, value: issue.received });
    setAt(swapped, issue.path, known);
  }
  return unknown.length ? { body: swapped, unknown } : undefined;
}

/** Puts each unknown value back, where validation had its stand-in. */
export function restoreUnknownValues<T>(body: T, unknown: UnknownEnumValue[]): T {
  for (const { path, value } of unknown) setAt(body, path, value);
  return body;
}

function setAt(target: unknown, path: Path, value: string): void {
  let node = target as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path.at(-1)!] = value;
}
