import { Counter, Registry } from 'prom-client';

/** Rows deleted by the retention job, per table (GET /metrics when registered in the app's registry). */
export function retentionDeletedCounter(registry: Registry = new Registry()): Counter<'table'> {
  return new Counter({
    name: 'retention_rows_deleted_total',
    help: 'Rows deleted by the retention job once expired, by table',
    labelNames: ['table'] as const,
    registers: [registry],
  });
}
