import type { Change } from './breaking.js';

interface Rule {
  /** Why the change is not breaking for a partner, in one sentence. */
  reason: string;
  matches: (change: Change) => boolean;
}

/**
 * The project's own rules for what api-smart-diff classifies as breaking but is not, for this API. Each rule says
 * why; a rule never hides a change of what the server accepts or answers on the wire.
 */
export const BREAKING_RULES: Rule[] = [
  {
    reason:
      'An int32 or int64 format added to an integer: its bounds were declared before, and integer-formats.ts gives int32 ' +
      'only to bounds that fit in 32 bits, so no value the server took or sent before is outside it.',
    matches: (change) =>
      change.action === 'add' &&
      change.path.endsWith('/format') &&
      (change.after === 'int32' || change.after === 'int64'),
  },
  {
    reason:
      'A value added to an enum of an answer (a booking status, an event type...): the document declares these enums ' +
      'open to additions and says what a client does with a value it does not know (docs/api.md, "Versions").',
    matches: (change) =>
      change.action === 'add' &&
      /\/responses\/[^/]+\/content\/.*\/enum\/\d+$/.test(change.path) &&
      !/\/properties\/error\/enum\//.test(change.path),
  },
];
