import { type FieldProblem, ValidationError } from '../errors/domain-errors.js';

/** Every problem of the file, each with its JSON path; nothing was written. */
export class ImportValidationError extends ValidationError {
  constructor(problems: FieldProblem[]) {
    super(problems);
    this.message = `The venue data file has ${problems.length} problem${problems.length === 1 ? '' : 's'}`;
  }
  get problems(): FieldProblem[] {
    return this.details;
  }
}

/** Bytes that are not a JSON document (or one nested beyond reason): the file's fault, said in one line. */
export class UnreadableVenueFileError extends Error {
  override name = 'UnreadableVenueFileError';
}
