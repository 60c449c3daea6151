/** Breaking needs a major version and an acknowledgement; additive needs at least a minor. Prose needs nothing. */
export type Severity = 'breaking' | 'additive';

export interface Change {
  /**
   * Stable and readable, the line an acknowledgement names: what changed, then where in the document it was made
   * (a named schema and its field, or an operation), then the values when there are some:
   * `response field removed: Booking.booking_number`, `request enum value removed: CancelledBy "customer"`.
   */
  id: string;
  severity: Severity;
  /** The operations and webhooks that carry it (`GET /v1/bookings/{booking_id} 200`, `webhook booking.created`). */
  where: string[];
  /** The breaking-rules.ts reason that made a breaking change additive, when one did. */
  rule?: string;
}

/** What a rule of breaking-rules.ts may look at besides the id: the keyword and the schema before the change. */
export interface ChangeFacts {
  kind: string;
  keyword?: string;
  before?: unknown;
  after?: unknown;
  /** The schema (resolved) before the change, where the change is inside one. */
  schema?: Record<string, unknown>;
  /** The enum before the change was declared open to additions. */
  open?: boolean;
}

type Facts = Omit<ChangeFacts, 'kind'>;

export interface Entry extends Change {
  facts: ChangeFacts;
}

/** The changes found so far, one per id: the same change seen through several operations is one change. */
export class ChangeLog {
  private readonly entries = new Map<string, Entry>();

  /** `detail` (values before and after) goes in parentheses after the subject. */
  add(severity: Severity, kind: string, subject: string, where: string, detail?: string, facts: Facts = {}) {
    const id = `${kind}: ${subject}${detail ? ` (${detail})` : ''}`;
    const entry = this.entries.get(id);
    if (entry) {
      if (!entry.where.includes(where)) entry.where.push(where);
      return;
    }
    this.entries.set(id, { id, severity, where: [where], facts: { kind, ...facts } });
  }

  list(): Entry[] {
    return [...this.entries.values()]
      .map((entry) => ({ ...entry, where: [...entry.where].sort() }))
      .sort((a, b) => a.id.localeCompare(b.id));
  }
}
