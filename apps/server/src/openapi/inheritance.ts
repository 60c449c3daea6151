import type { Components, Schema } from './components.js';

/**
 * The base schema of the error bodies of a status where a route answers one of several bodies: a generated client
 * types that status as the base and picks the body's class by `error`.
 */
export const ERROR_BASES: Record<string, { name: string; description: string }> = {
  '403': {
    name: 'AccessDeniedError',
    description: '403: any body of this status; `error` tells which (the mapping names its schema)',
  },
  '404': {
    name: 'NotFoundError',
    description: '404: any body of this status; `error` tells which (the mapping names its schema)',
  },
  '409': {
    name: 'ConflictError',
    description: '409: any body of this status; `error` tells which (the mapping names its schema)',
  },
  '422': {
    name: 'UnprocessableError',
    description: '422: any body of this status; `error` tells which (the mapping names its schema)',
  },
};

interface Discriminator {
  propertyName: string;
  mapping: Record<string, string>;
}

const nameOf = (ref: string) => ref.split('/').at(-1)!;
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/**
 * Turns the named members of discriminated unions into subclasses of a base schema that carries the discriminator
 * and its mapping (`allOf: [{ $ref: base }, own fields]`), and every use of the union into a reference to the base.
 * Measured: NSwag types a `oneOf` as its first member (the range availability answer and a 404 for an unknown
 * variant could not be read); it honours a discriminator on a base schema with `allOf` children, and so do
 * openapi-generator-plus (Jackson subtypes), oapi-codegen (merged structs) and the TypeScript generators (each
 * member gets its discriminator value as a literal). The wire does not change: the same bodies, described as a
 * hierarchy. Fields every member has alike move to the base, so a client reads them without knowing the member.
 */
export class Inheritance {
  private readonly bases = new Map<string, { description: string; discriminator: Discriminator }>();
  private readonly parents = new Map<string, string>();

  constructor(private readonly components: Components) {}

  /** Records that `union`'s members are subclasses of `base`, and answers the reference that replaces the union. */
  adopt(base: string, description: string, union: Schema): Schema {
    const discriminator = union.discriminator as Discriminator;
    const known = this.bases.get(base);
    if (known && known.discriminator.propertyName !== discriminator.propertyName) {
      throw new Error(`${base} is discriminated by two properties`);
    }
    const mapping = { ...known?.discriminator.mapping, ...discriminator.mapping };
    this.bases.set(base, { description, discriminator: { propertyName: discriminator.propertyName, mapping } });
    for (const target of Object.values(discriminator.mapping)) this.parent(nameOf(target), base);
    return ref(base);
  }

  /** Adds a body answered alone at a status that has a base, so it is a subclass like the others. */
  adoptMember(base: string, description: string, member: string, propertyName: string): void {
    const values = (this.components[member]?.properties as Record<string, Schema> | undefined)?.[propertyName]?.enum as
      string[] | undefined;
    if (!values) return;
    const mapping = Object.fromEntries(values.map((value) => [value, ref(member).$ref]));
    this.adopt(base, description, { discriminator: { propertyName, mapping } });
  }

  private parent(member: string, base: string) {
    const known = this.parents.get(member);
    if (known && known !== base) throw new Error(`${member} would have two bases, ${known} and ${base}`);
    this.parents.set(member, base);
  }

  /** Writes the bases and rewrites their members as `allOf` subclasses. */
  apply(): void {
    for (const [base, { description, discriminator }] of this.bases) {
      const members = [...new Set(Object.values(discriminator.mapping).map(nameOf))].map((name) => {
        const schema = this.components[name];
        if (!schema?.properties) throw new Error(`${name}: a member of ${base} must be an object schema`);
        return [name, schema] as const;
      });
      const property = discriminator.propertyName;
      const fields = allFields(
        members.map(([, schema]) => schema),
        property,
      );
      const required = Object.keys(fields).filter((field) =>
        members.every(([, schema]) => requiredOf(schema).includes(field)),
      );
      this.components[base] = {
        type: 'object',
        description,
        required: [property, ...required],
        properties: { [property]: { type: 'string', description: describe(members, discriminator) }, ...fields },
        discriminator,
      };
      for (const [name, schema] of members)
        this.components[name] = subclass(base, schema, property, required, Object.keys(fields));
    }
  }
}

const propertiesOf = (schema: Schema) => schema.properties as Record<string, Schema>;
const requiredOf = (schema: Schema) => (schema.required as string[] | undefined) ?? [];

/**
 * Every property of the members but the discriminator, for the base: so a client that reads the base (Go's
 * oapi-codegen, which decodes into it and drops what it does not declare; TypeScript's generators) has every field,
 * optional unless every member requires it. Two members' forms of one field may differ in example only; a field
 * whose members give it different forms (an event's `data`, which each event type shapes its own way) stays with
 * the members alone, so the base never promises one form of it. The release rules see such a field leave a
 * released base as a removal.
 */
function allFields(schemas: Schema[], discriminator: string): Record<string, Schema> {
  const fields: Record<string, Schema> = {};
  const differing = new Set<string>();
  for (const schema of schemas) {
    for (const [field, form] of Object.entries(propertiesOf(schema))) {
      if (field === discriminator || differing.has(field)) continue;
      const known = fields[field];
      if (!known) fields[field] = form;
      else if (JSON.stringify(known) !== JSON.stringify(form)) {
        const { example: _a, ...a } = known;
        const { example: _b, ...b } = form;
        if (JSON.stringify(a) === JSON.stringify(b)) fields[field] = a;
        else {
          differing.add(field);
          delete fields[field];
        }
      }
    }
  }
  return fields;
}

/** The members' own description of the discriminator when they agree, else the values and what they tell. */
function describe(members: (readonly [string, Schema])[], discriminator: Discriminator): string {
  const descriptions = new Set(
    members.map(([, schema]) => propertiesOf(schema)[discriminator.propertyName]?.description),
  );
  const [only] = descriptions;
  if (descriptions.size === 1 && typeof only === 'string') return only;
  const values = Object.keys(discriminator.mapping).map((value) => `\`${value}\``);
  return `${values.join(' or ')}: which of the schemas of the mapping this is`;
}

/**
 * `{ description, allOf: [{ $ref: base }], its discriminator value and the fields it requires beyond the base's,
 * example }`: the fields themselves are the base's. The member's own part sits beside the `allOf`, not inside it:
 * oapi-codegen before 2.4 refuses to merge an `allOf` one of whose parts has a discriminator, and with a single
 * part it merges nothing (the member is the base's Go type, which has every field).
 */
function subclass(
  base: string,
  schema: Schema,
  discriminator: string,
  baseRequired: string[],
  baseFields: string[],
): Schema {
  const { description, example } = schema;
  const own = requiredOf(schema).filter((field) => !baseRequired.includes(field));
  // The discriminator's own value, and every field the base leaves to its members (one they shape differently).
  const kept = Object.entries(propertiesOf(schema)).filter(
    ([field]) => field === discriminator || !baseFields.includes(field),
  );
  return {
    ...(description !== undefined && { description }),
    allOf: [ref(base)],
    type: 'object',
    required: own,
    properties: Object.fromEntries(kept),
    ...(example !== undefined && { example }),
  };
}
