import { Command } from 'commander';
import { CONTRACT_VERSION } from '../lib/contract-version.js';
import { registerBackup } from './backup.command.js';
import { registerBookings } from './bookings.command.js';
import type { CommandHost } from './command-host.js';
import { ExitCode, reportFailure } from './exit-codes.js';
import { registerImport } from './import.command.js';
import { registerKeys } from './keys.command.js';
import { registerTherapists } from './therapists.command.js';
import { registerUsers } from './users.command.js';
import { registerWebhooks } from './webhooks.command.js';

/**
 * `spa <command>`: the operator CLI. Each command group lives in its own `*.command.ts`; its database work runs
 * through the host, so the same program runs on its own, inside the server (forwarded), or inside a test.
 */
export function buildProgram(host: CommandHost): Command {
  const program = new Command('spa')
    .description('Operator CLI of the Partner Booking API')
    // The API's version is what an operator compares with partners' SDKs and the served /openapi.json.
    .version(`spa ${CONTRACT_VERSION}`, '-V, --version', 'print the version of the API this CLI serves')
    .exitOverride()
    .configureOutput({ writeOut: (text) => host.io.stdout(text), writeErr: (text) => host.io.stderr(text) });
  registerImport(program, host);
  registerKeys(program, host);
  registerBookings(program, host);
  registerTherapists(program, host);
  registerWebhooks(program, host);
  registerUsers(program, host);
  registerBackup(program, host);
  return program;
}

/** Runs one command line (without `node spa`) and answers its exit code; failures are reported on stderr. */
export async function runCli(argv: string[], host: CommandHost): Promise<number> {
  try {
    await buildProgram(host).parseAsync(argv, { from: 'user' });
    return ExitCode.Ok;
  } catch (error) {
    return reportFailure(error, host.io);
  }
}
