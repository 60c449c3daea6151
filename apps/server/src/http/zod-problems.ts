import type { ZodError, ZodIssue } from 'zod';
import type { FieldProblem } from '../errors/domain-errors.js';

/**
 * Turns zod issues into one human sentence per field, prefixed by its dotted path
 * (`guest.email must be a valid email address`), as docs/api.md ("Errors") asks of every 400.
 */
export function problemsOf(error: ZodError, root?: string): FieldProblem[] {
  return error.issues.map((issue) => {
    // A problem with the whole body or query (an array where an object belongs) is named after it.
    const path = issue.path.length ? issue.path.join('.') : (root ?? '');
    // A query parameter sent twice (`?page=1&page=2`, `page[]=1`) arrives as an array.
    const repeated = root === 'query' && issue.code === 'invalid_type' && issue.received === 'array';
    const text = repeated ? 'must be given once' : sentence(issue);
    const named = text.startsWith(path) && /^[^\w.[]/.test(text.slice(path.length)); // already names its field
    const message = !path || named ? text : `${path} ${text}`;
    return { path, message };
  });
}

export function sentence(issue: ZodIssue): string {
  // The contract writes its own messages in lower case ("must be a UUID"); zod's defaults are capitalised.
  if (/^[a-z]/.test(issue.message)) return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      return issue.received === 'undefined' ? 'is required' : `must be ${article(issue.expected)}`;
    case 'unrecognized_keys':
      return `has unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')}`;
    case 'invalid_enum_value':
      return `must be one of ${issue.options.join(', ')}`;
    case 'invalid_literal':
      return `must be ${JSON.stringify(issue.expected)}`;
    case 'too_small':
      if (issue.type !== 'string') return `must be at least ${String(issue.minimum)}`;
      return issue.minimum === 1 ? 'must not be empty' : `must be at least ${String(issue.minimum)} characters`;
    case 'too_big':
      return issue.type === 'string'
        ? `must be at most ${String(issue.maximum)} characters`
        : `must be at most ${String(issue.maximum)}`;
    case 'invalid_string':
      return `must be a valid ${typeof issue.validation === 'string' ? issue.validation : 'string'}`;
    default:
      return 'is invalid';
  }
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}
