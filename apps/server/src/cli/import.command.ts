import { resolve } from 'node:path';
import type { Command } from 'commander';
import { importVenueData } from '../import/import-venue-data.js';
import { OperatorError } from '../errors/operator-error.js';
import { type CommandHost, print } from './command-host.js';
import { formatTable } from './format-table.js';
import { readImportFile } from './read-import-file.js';

export function registerImport(program: Command, host: CommandHost): void {
  program
    .command('import')
    .description(
      'validate a venue data file, then upsert it in one transaction (idempotent; an invalid file changes nothing)',
    )
    .argument('<file>', 'venue data file (JSON, see docs/venue-data.schema.json)')
    .action(async (file: string) => {
      const path = resolve(host.cwd, file);
      const text = readImportFile(path);
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (error) {
        throw new OperatorError(
          `Cannot read ${path} as JSON: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      const { changes, notices } = await host.withContext(({ db, vault }) =>
        importVenueData(db, json, vault, host.clock.now()),
      );
      print(host, `Imported ${path}:\n`);
      print(
        host,
        formatTable(
          Object.entries(changes).map(([entity, c]) => ({
            entity: entity.replace('_', ' '),
            created: c.created,
            updated: c.updated,
            unchanged: c.unchanged,
          })),
        ),
      );
      for (const notice of notices) print(host, `Note: ${notice}`);
    });
}
