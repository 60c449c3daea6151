import { CommanderError } from 'commander';
import { DataDirBusyError } from '../db/data-dir-lock.js';
import { DomainError, ValidationError } from '../errors/domain-errors.js';
import type { CommandIo } from './command-host.js';

/** The CLI's exit codes (README "Operator CLI"). */
export const ExitCode = {
  Ok: 0,
  /** A domain error: the command was refused (unknown id, invalid file, a rule it would break); nothing changed. */
  Refused: 1,
  /** The command line itself is wrong (unknown command or option, malformed argument). */
  Usage: 2,
  /** The command could not run (database busy or unreachable, unexpected failure); trying again may work. */
  Failed: 3,
} as const;

/**
 * The one place where a failed command becomes its exit code and its words on stderr. Built on the domain
 * errors the API maps to statuses: a refusal (4xx) is exit 1 with its message, a validation error also lists
 * each problem; a 5xx-class domain error or anything unexpected is exit 3, with the message only (no stack,
 * which may print SQL; DEBUG=1 shows it).
 */
export function reportFailure(error: unknown, io: CommandIo): number {
  if (error instanceof CommanderError) {
    // commander has written its message already; help and version are successes.
    return error.exitCode === 0 ? ExitCode.Ok : ExitCode.Usage;
  }
  const [only, ...more] = error instanceof ValidationError ? error.details : [];
  if (error instanceof ValidationError && (more.length > 0 || only?.message !== error.message)) {
    io.stderr(`${error.message}; nothing was written:\n`);
    for (const problem of error.details) io.stderr(`  - ${problem.message}\n`);
    return ExitCode.Refused;
  }
  if (error instanceof DomainError) {
    io.stderr(`${error.message}\n`);
    return error.status >= 500 ? ExitCode.Failed : ExitCode.Refused;
  }
  if (error instanceof DataDirBusyError) {
    io.stderr(`${error.message}\n`);
    return ExitCode.Failed;
  }
  io.stderr(`Error: ${error instanceof Error ? error.message : String(error)}\n`);
  if (process.env.DEBUG && error instanceof Error) io.stderr(`${error.stack}\n`);
  return ExitCode.Failed;
}
