import type { FieldProblem } from '../errors/domain-errors.js';

/** Every problem of the file, each with its JSON path; nothing was written. */
export class ImportValidationError extends Error {
  constructor(readonly problems: FieldProblem[]) {
    super(`The venue data file has ${problems.length} problem${problems.length === 1 ? '' : 's'}`);
  }
}
