import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** What a column of src/db/schema.ts says, read from its TypeScript type. */
export interface DeclaredColumn {
  /** The value read back may be null. */
  nullable: boolean;
  /** An insert may leave it out (Generated, or a ColumnType whose insert type admits undefined or never). */
  insertOptional: boolean;
  /** The JavaScript kind of a non-null value: number, string, boolean, array or object. */
  kind: string;
}

const SCHEMA = fileURLToPath(new URL('../../src/db/schema.ts', import.meta.url));
const TSCONFIG = fileURLToPath(new URL('../../tsconfig.json', import.meta.url));

/**
 * The tables of schema.ts's `Database` interface and their columns, as the type checker sees them (so Generated,
 * ColumnType, aliases and types imported from the contract are resolved exactly as Kysely resolves them).
 */
export function declaredSchema(): Map<string, Map<string, DeclaredColumn>> {
  const config = ts.getParsedCommandLineOfConfigFile(
    TSCONFIG,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  )!;
  const program = ts.createProgram([SCHEMA], { ...config.options, noEmit: true });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(SCHEMA)!;
  const database = source.statements.find(
    (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'Database',
  );
  if (!database) throw new Error('src/db/schema.ts has no Database interface');
  const tables = new Map<string, Map<string, DeclaredColumn>>();
  for (const table of checker.getDeclaredTypeOfSymbol(checker.getSymbolAtLocation(database.name)!).getProperties()) {
    const columns = new Map<string, DeclaredColumn>();
    for (const column of checker.getTypeOfSymbol(table).getProperties())
      columns.set(column.name, describe(checker, checker.getTypeOfSymbol(column)));
    tables.set(table.name, columns);
  }
  return tables;
}

function describe(checker: ts.TypeChecker, type: ts.Type): DeclaredColumn {
  const members = (t: ts.Type) => (t.isUnion() ? t.types : [t]);
  // Kysely's ColumnType<S, I, U> (and Generated<T>) carry their three types as phantom properties; a union such
  // as `Int8 | null` is a ColumnType among other members.
  const part = (t: ts.Type, name: '__select__' | '__insert__') => {
    const symbol = t.getProperty(name);
    return symbol ? members(checker.getTypeOfSymbol(symbol)) : [t];
  };
  const select = members(type).flatMap((t) => part(t, '__select__'));
  const insert = members(type).flatMap((t) => part(t, '__insert__'));
  const kinds = new Set(select.filter((t) => !(t.flags & ts.TypeFlags.Null)).map((t) => kindOf(checker, t)));
  return {
    nullable: select.some((t) => t.flags & ts.TypeFlags.Null),
    insertOptional: insert.some((t) => t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Never)),
    kind: [...kinds].sort().join('|'),
  };
}

function kindOf(checker: ts.TypeChecker, t: ts.Type): string {
  if (t.flags & ts.TypeFlags.NumberLike) return 'number';
  if (t.flags & ts.TypeFlags.StringLike) return 'string';
  if (t.flags & ts.TypeFlags.BooleanLike) return 'boolean';
  if (checker.isArrayType(t)) return 'array';
  return 'object';
}
