import {
  type ParsedTokenInfo,
  Tokenizer,
  TokenizerError,
  TokenParser,
  TokenParserError,
  TokenType,
} from '@streamparser/json';
import type { ZodIssue } from 'zod';
import type { FieldProblem } from '../errors/domain-errors.js';
import { sentence } from '../http/zod-problems.js';
import { UnreadableVenueFileError } from './import-error.js';
import {
  COLLECTIONS,
  type Collection,
  collectIds,
  elementSchema,
  emptySalvage,
  type WellShapedPart,
} from './salvage.js';
import { VenueDataFile } from './venue-data.schema.js';

/**
 * Arrays and objects inside one another a venue data file may have. The format needs 8 (a variant's price);
 * a parser that follows a file 5,000,000 levels down spends its stack and the event loop on it.
 */
export const MAX_JSON_DEPTH = 64;

/** A venue data file read and checked entry by entry: its well-shaped entries and every shape problem. */
export interface ShapedVenueFile {
  part: WellShapedPart;
  shapeProblems: FieldProblem[];
}

/** Where a problem sorts: as zod reports a whole file, field by field of the schema, then entry by entry. */
type Ranked = FieldProblem & { rank: [number, number, number] };

const TOP_FIELDS = Object.keys(VenueDataFile.shape);

/**
 * Reads a venue data file from its bytes as they arrive, and checks each entry of each collection against its
 * schema as soon as it is complete: the text is never held whole, nor a parsed copy of the file beside the checked
 * one. Each chunk is handled synchronously and the reads between chunks are asynchronous, so a server that runs the
 * import keeps answering. Reports the same problems, in the same order, as checking the parsed file whole.
 * Throws UnreadableVenueFileError for text that is not JSON, or nests deeper than MAX_JSON_DEPTH.
 */
export async function readVenueStream(chunks: AsyncIterable<Uint8Array>): Promise<ShapedVenueFile> {
  const { data, positions, droppedIds } = emptySalvage();
  const elementProblems = new Map<Collection, Ranked[]>();
  // The file's top level with each collection's entries left out: what the file schema itself judges.
  const shell: Record<string, unknown> = {};
  let root: 'object' | 'other' | undefined;
  let otherRoot: unknown;
  let depth = 0;
  let expectingKey = false;
  let key: string | undefined;

  const parser = new TokenParser({ paths: ['$.*.*'], keepStack: false });
  parser.onValue = ({ value, key: index, stack }) => {
    const name = stack[1]?.key as Collection;
    if (root !== 'object' || typeof index !== 'number' || !Array.isArray(shell[name])) return;
    if (!(COLLECTIONS as readonly string[]).includes(name)) return;
    const parsed = elementSchema(name).safeParse(value);
    if (parsed.success) {
      (data[name] as unknown[]).push(parsed.data);
      positions[name].push(index);
      return;
    }
    collectIds(value, droppedIds);
    const problems = elementProblems.get(name) ?? [];
    for (const issue of parsed.error.issues)
      problems.push({ ...problemOf(issue, [name, index, ...issue.path]), rank: [TOP_FIELDS.indexOf(name), index, 0] });
    elementProblems.set(name, problems);
  };
  const tokenizer = new Tokenizer();
  tokenizer.onToken = (token: ParsedTokenInfo) => {
    const opens = token.token === TokenType.LEFT_BRACE || token.token === TokenType.LEFT_BRACKET;
    if (root === undefined) {
      root = token.token === TokenType.LEFT_BRACE ? 'object' : 'other';
      if (root === 'other') otherRoot = token.token === TokenType.LEFT_BRACKET ? [] : token.value;
    }
    if (depth === 1 && root === 'object') {
      if (expectingKey && token.token === TokenType.STRING) {
        const name = String(token.value);
        key = name;
        expectingKey = false;
        if (shell[name] !== undefined && (COLLECTIONS as readonly string[]).includes(name)) forget(name as Collection);
      } else if (token.token === TokenType.COMMA) expectingKey = true;
      else if (key !== undefined && token.token !== TokenType.COLON && token.token !== TokenType.RIGHT_BRACE) {
        shell[key] =
          token.token === TokenType.LEFT_BRACKET ? [] : token.token === TokenType.LEFT_BRACE ? {} : token.value;
      }
    }
    if (opens) {
      depth++;
      if (depth > MAX_JSON_DEPTH)
        throw new UnreadableVenueFileError(
          `it nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels (at byte ${token.offset}); a venue data file needs 8`,
        );
      if (depth === 1) expectingKey = true;
    } else if (token.token === TokenType.RIGHT_BRACE || token.token === TokenType.RIGHT_BRACKET) depth--;
    parser.write(token);
  };
  // A collection named twice: JSON.parse keeps the last, and so does this reader.
  const forget = (name: Collection) => {
    data[name] = [];
    positions[name] = [];
    elementProblems.delete(name);
  };

  // The parser's own words (an unexpected character and its position), as JSON.parse gives them.
  const parse = (step: () => void, isParserError: (error: unknown) => boolean) => {
    try {
      step();
    } catch (error) {
      if (error instanceof UnreadableVenueFileError || !isParserError(error)) throw error;
      throw new UnreadableVenueFileError((error as Error).message);
    }
  };
  const thrownByParser = (error: unknown) => error instanceof TokenizerError || error instanceof TokenParserError;
  for await (const chunk of chunks) parse(() => tokenizer.write(chunk), thrownByParser);
  parse(
    () => {
      tokenizer.end();
      if (root === undefined) throw new Error('the file is empty');
      if (!parser.isEnded) parser.end(); // a document cut short
    },
    (error) => error instanceof Error,
  );

  const top = VenueDataFile.safeParse(root === 'object' ? shell : otherRoot);
  const topProblems: Ranked[] = top.success
    ? []
    : top.error.issues.map((issue, i) => {
        const field = issue.path[0];
        const at = typeof field === 'string' ? TOP_FIELDS.indexOf(field) : TOP_FIELDS.length;
        return { ...problemOf(issue, issue.path), rank: [at, -1, i] };
      });
  const ranked = [...topProblems, ...[...elementProblems.values()].flat()];
  const shapeProblems = ranked
    .map((problem, order) => ({ problem, order }))
    .sort((a, b) => compareRanks(a.problem.rank, b.problem.rank) || a.order - b.order)
    .map(({ problem: { path, message } }) => ({ path, message }));
  return { part: { data, positions, droppedIds }, shapeProblems };
}

function compareRanks(a: [number, number, number], b: [number, number, number]): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** A zod issue as the import reports it: `customers[3].email: must be a valid email address`. */
export function problemOf(issue: ZodIssue, path: (string | number)[]): FieldProblem {
  const at = path.reduce<string>(
    (acc, part) => (typeof part === 'number' ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part),
    '',
  );
  return { path: at, message: `${at || '(file)'}: ${sentence(issue)}` };
}
