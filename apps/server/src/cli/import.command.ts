import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Command } from 'commander';
import { importVenueData } from '../import/import-venue-data.js';
import { OperatorError } from '../errors/operator-error.js';
import { withOperatorContext } from './operator-context.js';

export const importCommand = new Command('import')
  .description(
    'validate a venue data file, then upsert it in one transaction (idempotent; an invalid file changes nothing)',
  )
  .argument('<file>', 'venue data file (JSON, see docs/venue-data.schema.json)')
  .action(async (file: string) => {
    // pnpm runs scripts inside the package; a relative path means the user's directory.
    const path = resolve(process.env.INIT_CWD ?? process.cwd(), file);
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(path, 'utf8'));
    } catch (error) {
      const reason =
        (error as NodeJS.ErrnoException).code === 'ENOENT'
          ? 'no such file'
          : error instanceof Error
            ? error.message
            : String(error);
      throw new OperatorError(`Cannot read ${path} as JSON: ${reason}`);
    }
    const { counts, notices } = await withOperatorContext(({ db, vault }) => importVenueData(db, json, vault));
    console.log(`Imported ${path}:`);
    for (const [entity, count] of Object.entries(counts))
      console.log(`  ${entity.replace('_', ' ').padEnd(14)} ${count}`);
    for (const notice of notices) console.log(`Note: ${notice}`);
  });
