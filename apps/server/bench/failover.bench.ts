import { FailoverDrill } from '../test/support/failover-drill.js';
import { patroniUnavailableReason } from '../test/support/patroni.js';

/**
 * The loss of the primary, measured: a Patroni pair in synchronous mode, the compiled server on its multi-host URL,
 * four create loops, kill -9 of the leader's PostgreSQL. Prints the write outage (the kill to the first create
 * acknowledged after it), the promotion, what clients were answered meanwhile, and the acknowledged bookings the
 * new leader does not hold (the target is 0).
 */
export async function benchFailover(): Promise<string[]> {
  const unavailable = patroniUnavailableReason();
  if (unavailable) return [`failover: skipped (${unavailable})`];
  const drill = new FailoverDrill();
  try {
    await drill.start();
    const result = await drill.run({ workers: 4, killAfterMs: 3_000, settleMs: 3_000 });
    const statuses = new Map<number, number>();
    for (const a of result.answers) statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
    const lost = result.acknowledged.length - result.onNewLeader;
    const outage = Math.round(result.writeOutageMs);
    return [
      'failover (kill -9 of the leader PostgreSQL, Patroni 3 + etcd, synchronous standby, 4 create loops)',
      `  creates sent              ${result.answers.length}: ${[...statuses].map(([s, n]) => `${n} x ${s}`).join(', ')}`,
      `  promotion                 ${Math.round(result.promotionMs)} ms after the kill`,
      `  write outage              ${outage} ms (target < 15000 ms)   ${outage < 15_000 ? 'ok' : 'OVER'}`,
      `  bookings lost             ${lost} of ${result.acknowledged.length} acknowledged (target 0)   ${lost === 0 ? 'ok' : 'LOST'}`,
    ];
  } finally {
    await drill.stop();
  }
}
