import type { z } from 'zod';
import type { FieldProblem } from '../errors/domain-errors.js';
import type { StoredReferences } from './stored-references.js';
import { validateReferences } from './validate-references.js';
import { type VenueData, VenueDataFile } from './venue-data.schema.js';

export const COLLECTIONS = ['organisations', 'api_keys', 'venues', 'therapists', 'customers', 'bookings'] as const;
export type Collection = (typeof COLLECTIONS)[number];

/** The well-shaped entries of a file that has shape problems, and where each came from. */
export interface WellShapedPart {
  data: VenueData;
  /** For each collection, the position in the file of each kept entry. */
  positions: Record<Collection, number[]>;
  /** Ids found anywhere inside the malformed entries. */
  droppedIds: Set<string>;
}

/** Where salvage starts: every collection empty, no position kept, no id dropped (whole file or streamed). */
export function emptySalvage() {
  const data: VenueData = {
    organisations: [],
    api_keys: [],
    venues: [],
    therapists: [],
    customers: [],
    bookings: [],
  };
  const positions = Object.fromEntries(COLLECTIONS.map((name) => [name, [] as number[]])) as Record<
    Collection,
    number[]
  >;
  return { data, positions, droppedIds: new Set<string>() };
}

/** Keeps each entry of the file that its collection's schema accepts (undefined when the file is not an object). */
export function wellShapedPart(file: unknown): WellShapedPart | undefined {
  if (typeof file !== 'object' || file === null || Array.isArray(file)) return undefined;
  const raw = file as Record<string, unknown>;
  const { data, positions, droppedIds } = emptySalvage();
  for (const name of COLLECTIONS) {
    const entries = raw[name];
    if (!Array.isArray(entries)) continue;
    const element = elementSchema(name);
    entries.forEach((entry, index) => {
      const parsed = element.safeParse(entry);
      if (parsed.success) {
        (data[name] as unknown[]).push(parsed.data);
        positions[name].push(index);
      } else collectIds(entry, droppedIds);
    });
  }
  return { data, positions, droppedIds };
}

/**
 * The cross-reference problems of a file that also has shape problems, so one run reports every problem. The
 * checks run on the well-shaped entries only, with each problem's paths rewritten to the entry's position in
 * the file. A problem that may come from a malformed entry (one naming the id of a dropped entry, or lying under
 * a path the schema already reported) is left out: it would be noise.
 */
export function referenceProblemsOfMalformed(
  part: WellShapedPart,
  shapeProblems: FieldProblem[],
  stored: StoredReferences,
): FieldProblem[] {
  let problems: FieldProblem[];
  try {
    problems = validateReferences(part.data, stored);
  } catch {
    return []; // a file too broken to follow references through: its shape problems say enough
  }
  const renumber = (text: string) =>
    text.replace(
      /\b(organisations|api_keys|venues|therapists|customers|bookings)\[(\d+)\]/g,
      (_, name: Collection, i: string) => `${name}[${part.positions[name][Number(i)]}]`,
    );
  const reported = shapeProblems.map((p) => p.path).filter(Boolean);
  const underReported = (path: string) =>
    reported.some((at) => path === at || path.startsWith(`${at}.`) || path.startsWith(`${at}[`));
  return problems
    .map((p) => ({ path: renumber(p.path), message: renumber(p.message) }))
    .filter((p) => ![...part.droppedIds].some((id) => p.message.includes(id)))
    .filter((p) => !underReported(p.path));
}

/** The schema of one entry of a collection. */
export function elementSchema(name: Collection): z.ZodTypeAny {
  // Each collection is `z.array(element).default([])`.
  return (VenueDataFile.shape[name] as unknown as z.ZodDefault<z.ZodArray<z.ZodTypeAny>>).removeDefault().element;
}

/** Every `id` found anywhere inside a value (a malformed entry's ids, whose reference problems are noise). */
export function collectIds(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) value.forEach((v) => collectIds(v, into));
  else if (typeof value === 'object' && value !== null) {
    for (const [key, child] of Object.entries(value)) {
      if (key === 'id' && typeof child === 'string' && child.length > 0) into.add(child);
      else collectIds(child, into);
    }
  }
}
