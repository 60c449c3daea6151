import { ErrorText, OPEN_ENUM_MARK } from '@spa/contract';

type Json = Record<string, unknown>;

/** `Venue not found` → `VenueNotFound`: the contract's own name of each fixed error text. */
const ERROR_TEXT_NAMES = new Map<string, string>(Object.entries(ErrorText).map(([name, text]) => [text, name]));

/**
 * Enum constant names where a value is not one: every enum of fixed error texts gets the contract's name of each
 * text (`RequestTimeout` for `Request body did not arrive within 10 s of its headers`), under both extensions
 * generators read: `x-enum-varnames` (openapi-generator, oapi-codegen 1.13+) and `x-enumNames` (NSwag, oapi-codegen).
 */
function enumNames(values: unknown[]): Json {
  const names = values.map((value) => (typeof value === 'string' ? ERROR_TEXT_NAMES.get(value) : undefined));
  if (names.some((name) => name === undefined)) return {};
  return { 'x-enum-varnames': names, 'x-enumNames': names };
}

/**
 * An enum the contract marked open to additions becomes a string whose known values are listed in
 * `x-extensible-enum` (Zalando's extension for exactly this) and in its description. Measured: an `enum` makes a
 * Java (Jackson) or C# (Newtonsoft) enum type that throws on a value it does not know, such as `on_hold`; an
 * `anyOf` of the enum and a plain string, which NSwag and oapi-codegen read as a string and the TypeScript
 * generators as `string | "pending" | ...`, makes openapi-generator-plus write a wrapper interface that Jackson
 * cannot build at all. A string reads in every generator; the values stay in every generated doc comment.
 */
function openEnum(schema: Json): Json {
  const { [OPEN_ENUM_MARK]: _mark, enum: values, type, description, ...rest } = schema;
  if (type !== 'string' || !Array.isArray(values))
    throw new Error(`${OPEN_ENUM_MARK} on a schema without a string enum`);
  const known = `Known values: ${values.map((value) => `\`${String(value)}\``).join(', ')}.`;
  return {
    type: 'string',
    description: typeof description === 'string' ? `${description} ${known}` : known,
    'x-extensible-enum': values,
    ...rest,
  };
}

/** Every schema of the document with its enums written for generators: open ones as strings, names beside texts. */
export function enumsForGenerators<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item: unknown) => enumsForGenerators(item)) as T;
  if (value === null || typeof value !== 'object') return value;
  const copy: Json = Object.fromEntries(
    Object.entries(value as Json).map(([key, child]) => [
      key,
      key === 'example' || key === 'examples' ? child : enumsForGenerators(child),
    ]),
  );
  if (copy[OPEN_ENUM_MARK]) return openEnum(copy) as T;
  if (Array.isArray(copy.enum)) return { ...copy, ...enumNames(copy.enum) } as T;
  return copy as T;
}
