import { apiCompare } from 'api-smart-diff';
import { BREAKING_RULES } from './breaking-rules.js';

type Json = Record<string, unknown>;

export interface Change {
  /** Where, as a JSON path of the dereferenced document (`paths//v1/venues/get/responses/200/...`). */
  path: string;
  action: string;
  description: string;
  /** The value after the change, when there is one. */
  after?: unknown;
}

/**
 * Every `$ref` of the document replaced by what it points to, and the components dropped: the comparison is of
 * what each operation and webhook takes and answers, so moving a schema into a component (or renaming one) is not
 * seen as a change of the wire. The document has no recursive schema.
 */
export function dereference(document: Json): Json {
  const resolve = (value: unknown, seen: string[]): unknown => {
    if (Array.isArray(value)) return value.map((item) => resolve(item, seen));
    if (value === null || typeof value !== 'object') return value;
    const { $ref, ...rest } = value as Json;
    if (typeof $ref === 'string') {
      if (seen.includes($ref)) throw new Error(`Recursive $ref ${$ref}: dereference cannot inline it`);
      const target = $ref
        .slice(2)
        .split('/')
        .reduce<unknown>((node, key) => (node as Json)[key], document);
      const inlined = resolve(target, [...seen, $ref]) as Json;
      return Object.keys(rest).length === 0 ? inlined : { ...inlined, ...(resolve(rest, seen) as Json) };
    }
    return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, resolve(child, seen)]));
  };
  const { components, ...rest } = resolve(document, []) as Json & { components?: Json };
  return { ...rest, components: { securitySchemes: components?.securitySchemes } };
}

/**
 * The breaking changes from `before` (the last released document) to `after`, as api-smart-diff classifies them
 * on the dereferenced documents, less what the project's rules (breaking-rules.ts) know it gets wrong.
 */
export function breakingChanges(before: Json, after: Json): Change[] {
  const { diffs } = apiCompare(dereference(before), dereference(after));
  return diffs
    .map((diff) => ({
      type: diff.type,
      path: diff.path.join('/'),
      action: diff.action,
      description: diff.description ?? `${diff.action} ${diff.path.join('/')}`,
      after: diff.after as unknown,
    }))
    .filter((change) => change.type === 'breaking')
    .filter((change) => !BREAKING_RULES.some((rule) => rule.matches(change)))
    .map(({ type: _type, ...change }) => change);
}

const major = (version: string) => Number(version.split('.')[0]);

export interface Verdict {
  ok: boolean;
  breaking: Change[];
  message: string;
}

/**
 * The release rule of the document: a breaking change needs the next contract version (what the pending
 * changesets make of it) to be of a higher major than the released document's.
 */
export function judge(released: Json, generated: Json, nextVersion: string): Verdict {
  const breaking = breakingChanges(released, generated);
  const releasedVersion = String((released.info as Json).version);
  if (breaking.length === 0) return { ok: true, breaking, message: `No breaking change since ${releasedVersion}.` };
  if (major(nextVersion) > major(releasedVersion)) {
    return {
      ok: true,
      breaking,
      message: `${breaking.length} breaking change(s) since ${releasedVersion}, released as ${nextVersion} (a new major).`,
    };
  }
  return {
    ok: false,
    breaking,
    message:
      `${breaking.length} breaking change(s) since ${releasedVersion}, but the next version is ${nextVersion}: ` +
      'make the change compatible, or add a changeset with a major bump of @spa/contract (`pnpm changeset`) after ' +
      "the deprecation policy of docs/api.md ('Versions and deprecation').",
  };
}
