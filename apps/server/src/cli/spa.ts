import { Command } from 'commander';
import { BookingWorkflowError } from '../bookings/therapist-workflow.js';
import { ImportValidationError } from '../import/import-venue-data.js';
import { OperatorError } from '../keys/keys.service.js';
import { bookingsCommand } from './bookings.command.js';
import { importCommand } from './import.command.js';
import { keysCommand } from './keys.command.js';
import { webhooksCommand } from './webhooks.command.js';

/**
 * `pnpm spa <command>`: the operator CLI, on the same database settings as the server. Each command group
 * lives in its own `*.command.ts` and is registered here; its action runs inside withOperatorContext.
 */
const program = new Command('spa')
  .description('Operator CLI of the Partner Booking API')
  .addCommand(importCommand)
  .addCommand(keysCommand)
  .addCommand(bookingsCommand)
  .addCommand(webhooksCommand);

program.parseAsync(process.argv).catch((error: unknown) => {
  if (error instanceof ImportValidationError) {
    console.error(`${error.message}; nothing was written:`);
    for (const problem of error.problems) console.error(`  - ${problem.message}`);
  } else if (error instanceof OperatorError || error instanceof BookingWorkflowError) {
    console.error(error.message);
  } else {
    // Unexpected: the message alone (no stack, which may print SQL); DEBUG=1 shows the rest.
    console.error(`Error: ${error instanceof Error ? error.message : String(error)}`);
    if (process.env.DEBUG && error instanceof Error) console.error(error.stack);
  }
  process.exitCode = 1;
});
