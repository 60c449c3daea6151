import type { ChangeFacts } from './change-log.js';

interface Rule {
  /** Why the change is not breaking for a partner, in one sentence. */
  reason: string;
  matches: (facts: ChangeFacts) => boolean;
}

const INT32 = { minimum: -(2 ** 31), maximum: 2 ** 31 - 1 };
const bounded = (schema: Record<string, unknown> | undefined, range: { minimum: number; maximum: number }) =>
  typeof schema?.minimum === 'number' &&
  typeof schema.maximum === 'number' &&
  schema.minimum >= range.minimum &&
  schema.maximum <= range.maximum;

/**
 * The project's exceptions to what contract-diff classifies as breaking: each makes one kind of change additive
 * (it still needs a minor) and says why. A rule never hides a change of what the server accepts or answers: each
 * looks at the kind of change and the schema before it, never at a name.
 */
export const BREAKING_RULES: Rule[] = [
  {
    reason:
      'An int32 or int64 format added to an integer whose declared bounds already fit in it (integer-formats.ts gives ' +
      'int32 only to bounds that fit in 32 bits): no value the server took before is refused.',
    matches: (facts) =>
      facts.kind === 'request parameter narrowed' ||
      facts.kind === 'request field narrowed' ||
      facts.kind === 'request body narrowed'
        ? facts.keyword === 'format' &&
          facts.before === undefined &&
          facts.schema?.type === 'integer' &&
          ((facts.after === 'int32' && bounded(facts.schema, INT32)) ||
            (facts.after === 'int64' && bounded(facts.schema, { minimum: -(2 ** 63), maximum: 2 ** 63 - 1 })))
        : false,
  },
  {
    reason:
      'A value added to an enum of an answer that the document declares open to additions: the document says what a ' +
      'client does with a value it does not know (docs/api.md, "Versions and deprecation"), and a minor may add one.',
    matches: (facts) => facts.kind === 'response enum value added' && facts.open === true,
  },
];
