import { DomainError } from './domain-errors.js';

/** Preview endpoints answer 501 until their issue lands (issue 2 allows exactly this, nothing else). */
export class NotImplementedError extends DomainError {
  readonly status = 501;
  body() {
    return { error: 'Not implemented' };
  }
}
