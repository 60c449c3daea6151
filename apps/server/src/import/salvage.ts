import type { z } from 'zod';
import type { FieldProblem } from '../errors/domain-errors.js';
import { validateReferences } from './validate-references.js';
import { type VenueData, VenueDataFile } from './venue-data.schema.js';

const COLLECTIONS = ['organisations', 'api_keys', 'venues', 'therapists', 'customers', 'bookings'] as const;

/**
 * The cross-reference problems of a file that also has shape problems, so one run reports every problem
 * (DECISIONS). The checks run on the well-shaped entries only, with each problem's paths rewritten to the
 * entry's position in the file. A problem that may come from a malformed entry (one naming the id of a
 * dropped entry, or lying under a path the schema already reported) is left out: it would be noise.
 */
export function referenceProblemsOfMalformed(file: unknown, shapeProblems: FieldProblem[]): FieldProblem[] {
  if (typeof file !== 'object' || file === null || Array.isArray(file)) return [];
  const raw = file as Record<string, unknown>;
  const kept: Record<string, unknown[]> = {};
  const positions: Record<string, number[]> = {};
  const droppedIds = new Set<string>();
  for (const name of COLLECTIONS) {
    kept[name] = [];
    positions[name] = [];
    const entries = raw[name];
    if (!Array.isArray(entries)) continue;
    const element = elementSchema(name);
    entries.forEach((entry, index) => {
      const parsed = element.safeParse(entry);
      if (parsed.success) {
        kept[name]!.push(parsed.data);
        positions[name]!.push(index);
      } else collectIds(entry, droppedIds);
    });
  }
  let problems: FieldProblem[];
  try {
    problems = validateReferences(kept as unknown as VenueData);
  } catch {
    return []; // a file too broken to follow references through: its shape problems say enough
  }
  const renumber = (text: string) =>
    text.replace(
      /\b(organisations|api_keys|venues|therapists|customers|bookings)\[(\d+)\]/g,
      (_, name: string, i: string) => `${name}[${positions[name]![Number(i)]}]`,
    );
  const reported = shapeProblems.map((p) => p.path).filter(Boolean);
  return problems
    .map((p) => ({ path: renumber(p.path), message: renumber(p.message) }))
    .filter((p) => ![...droppedIds].some((id) => p.message.includes(id)))
    .filter(
      (p) =>
        !reported.some((path) => p.path === path || p.path.startsWith(`${path}.`) || p.path.startsWith(`${path}[`)),
    );
}

function elementSchema(name: (typeof COLLECTIONS)[number]): z.ZodTypeAny {
  // Each collection is `z.array(element).default([])`.
  return (VenueDataFile.shape[name] as unknown as z.ZodDefault<z.ZodArray<z.ZodTypeAny>>).removeDefault().element;
}

function collectIds(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) value.forEach((v) => collectIds(v, into));
  else if (typeof value === 'object' && value !== null) {
    for (const [key, child] of Object.entries(value)) {
      if (key === 'id' && typeof child === 'string' && child.length > 0) into.add(child);
      else collectIds(child, into);
    }
  }
}
