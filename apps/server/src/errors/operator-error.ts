import { DomainError } from './domain-errors.js';

/**
 * A refusal of an operator command (unknown key, organisation or booking; a rule it would break), in plain
 * words. A DomainError like every refusal, so the CLI maps it to an exit code as the API maps errors to statuses.
 */
export class OperatorError extends DomainError {
  readonly status: number = 400;
  body() {
    return { error: this.message };
  }
}
