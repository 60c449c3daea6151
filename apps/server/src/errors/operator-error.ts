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

/**
 * The server that owns the embedded database could not be asked to run a command: its operator socket or lock
 * file is not open to this user, or it answered badly. The command could not run (exit 3), in one line.
 */
export class ServerUnreachableError extends DomainError {
  readonly status = 503;
  constructor(dataDir: string, cause: unknown) {
    super(`Cannot reach the server that owns ${dataDir}: ${reasonOf(cause)}`, { cause });
  }
  body() {
    return { error: this.message };
  }
}

function reasonOf(error: unknown): string {
  const { code, path, address, message } = error as NodeJS.ErrnoException & { address?: string };
  const where = path ?? address;
  if ((code === 'EACCES' || code === 'EPERM') && where)
    return `permission denied on ${where}; run the command as the user that runs the server`;
  if (code && where) return `${code} on ${where}`;
  return error instanceof Error ? message : String(error);
}
