import { COMPONENT, type ComponentMark } from '@spa/contract';

export type Schema = Record<string, unknown>;
export type Components = Record<string, Schema>;

/** What a use of a named schema may add beside its reference; everything else belongs to the component. */
const USE_SITE_KEYS = ['description', 'example', 'default', 'nullable'] as const;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/**
 * Replaces every schema the contract marked with named() by a reference to `components.schemas[name]`, innermost
 * first, so a component refers to the components inside it. A use-site description or default stays beside the
 * reference (in an allOf, as OpenAPI 3.0 ignores siblings of $ref). Two uses of one name that
 * disagree on the component itself (an input and an output form, say) are a contract bug and throw.
 */
export function hoistComponents(schema: Schema, components: Components): Schema {
  const walked = walkChildren(schema, (child) => hoistComponents(child, components));
  const mark = walked[COMPONENT] as ComponentMark | undefined;
  if (!mark) return walked;

  const { [COMPONENT]: _mark, ...rest } = walked;
  const useSite: Schema = {};
  const shape: Schema = { ...rest };
  for (const key of USE_SITE_KEYS) {
    if (shape[key] !== undefined) useSite[key] = shape[key];
    delete shape[key];
  }
  const component: Schema = {
    ...(mark.description !== undefined && { description: mark.description }),
    ...shape,
    ...(mark.example !== undefined && { example: mark.example }),
  };
  // OpenAPI 3.0 validators apply `nullable` to the `type` beside it only, so `{ nullable, allOf: [$ref] }` refuses
  // null: a nullable use gets the component's schema inline instead.
  if (useSite.nullable) return { ...component, ...useSite };
  const known = components[mark.name];
  if (known && JSON.stringify(known) !== JSON.stringify(component)) {
    throw new Error(`Schema ${mark.name} is used in two different forms: name one of them differently`);
  }
  components[mark.name] = component;

  if (useSite.description === mark.description) delete useSite.description;
  if (JSON.stringify(useSite.example) === JSON.stringify(mark.example)) delete useSite.example;
  return Object.keys(useSite).length === 0 ? ref(mark.name) : { allOf: [ref(mark.name)], ...useSite };
}

/** A copy of the schema whose sub-schemas went through `visit`. */
export function walkChildren(schema: Schema, visit: (child: Schema) => Schema): Schema {
  const copy: Schema = { ...schema };
  const properties = schema.properties as Record<string, Schema> | undefined;
  if (properties) {
    copy.properties = Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, visit(value)]));
  }
  for (const key of ['items', 'not', 'additionalProperties'] as const) {
    const child = schema[key];
    if (child && typeof child === 'object') copy[key] = visit(child as Schema);
  }
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const children = schema[key] as Schema[] | undefined;
    if (children) copy[key] = children.map(visit);
  }
  return copy;
}

/**
 * A generator tells the members of a oneOf apart by their discriminator's value; @anatine/zod-openapi names the
 * property but leaves out the mapping, so it is filled here from each referenced component's single `error` text.
 */
export function mapDiscriminators(schema: Schema, components: Components): Schema {
  const walked = walkChildren(schema, (child) => mapDiscriminators(child, components));
  const discriminator = walked.discriminator as { propertyName: string; mapping?: Record<string, string> } | undefined;
  const members = walked.oneOf as Schema[] | undefined;
  if (!discriminator || !members || discriminator.mapping) return walked;
  const mapping: Record<string, string> = {};
  for (const member of members) {
    const target = typeof member.$ref === 'string' ? member.$ref : undefined;
    const name = target?.split('/').at(-1);
    const property = name ? (components[name]?.properties as Record<string, Schema> | undefined) : undefined;
    const values = property?.[discriminator.propertyName]?.enum as string[] | undefined;
    if (!target || !values) throw new Error(`oneOf member without a ${discriminator.propertyName} enum: cannot map it`);
    for (const value of values) mapping[value] = target;
  }
  return { ...walked, discriminator: { ...discriminator, mapping } };
}
