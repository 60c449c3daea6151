import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { zodToJsonSchema } from 'zod-to-json-schema';
import { VenueDataFile } from '../src/import/venue-data.schema.js';

/** Writes docs/venue-data.schema.json from the importer's own zod schema; CI fails when it is stale. */
const target = fileURLToPath(new URL('../../../docs/venue-data.schema.json', import.meta.url));
const schema = zodToJsonSchema(VenueDataFile, { name: 'VenueDataFile', $refStrategy: 'none', target: 'jsonSchema7' });
writeFileSync(
  target,
  JSON.stringify({ title: 'Venue data file of the Partner Booking API (pnpm spa import)', ...schema }, null, 2) + '\n',
);
console.log(`wrote ${target}`);
