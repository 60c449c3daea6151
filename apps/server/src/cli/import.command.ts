import { resolve } from 'node:path';
import type { Command } from 'commander';
import {
  importShapedVenueData,
  readVenueStream,
  type ShapedVenueFile,
  UnreadableVenueFileError,
} from '../import/import-venue-data.js';
import { type CommandHost, print } from './command-host.js';
import { formatTable } from './format-table.js';
import { readImportFile, unreadable } from './read-import-file.js';

export function registerImport(program: Command, host: CommandHost): void {
  program
    .command('import')
    .description(
      'validate a venue data file, then upsert it in one transaction (idempotent; an invalid file changes nothing)',
    )
    .argument('<file>', 'venue data file (JSON, see docs/venue-data.schema.json)')
    .action(async (file: string) => {
      const path = resolve(host.cwd, file);
      let shaped: ShapedVenueFile;
      try {
        shaped = await readVenueStream(readImportFile(path));
      } catch (error) {
        if (error instanceof UnreadableVenueFileError) throw unreadable(path, error.message);
        throw error;
      }
      const { changes, notices } = await host.withContext(({ db, vault }) =>
        importShapedVenueData(db, shaped, vault, host.clock.now()),
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
