import type { Components, Schema } from './components.js';

/**
 * The example of a schema as Swagger UI and mock servers build it: its own example, else one made from its parts
 * (references resolved, the first member of a oneOf, null for a nullable without example). The contract gives
 * every leaf an example from the demo data, so a composed example is a value the demo server accepts or answers.
 */
export function exampleOf(schema: Schema, components: Components): unknown {
  if (typeof schema.$ref === 'string') return exampleOf(components[schema.$ref.split('/').at(-1)!]!, components);
  if (schema.example !== undefined) return schema.example;
  const allOf = schema.allOf as Schema[] | undefined;
  if (allOf?.[0]) return exampleOf(allOf[0], components);
  const oneOf = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (oneOf?.[0]) return exampleOf(oneOf[0], components);
  if (schema.properties) {
    const properties = Object.entries(schema.properties as Record<string, Schema>);
    return Object.fromEntries(properties.map(([key, value]) => [key, exampleOf(value, components)]));
  }
  if (schema.type === 'array' && schema.items) return [exampleOf(schema.items as Schema, components)];
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (schema.nullable) return null;
  throw new Error(`No example for ${JSON.stringify(schema)}: give it one in the contract`);
}
