// An openapi-generator-plus generator module: @openapi-generator-plus/java-jaxrs-client-generator with two of the
// hooks it leaves to a descendant filled in; everything else is the generator's own output.
// - The JAX-RS client implementation, with what Debian packages (the only Java libraries reachable here, no Maven
//   Central): RESTEasy 3.0 (libresteasy3.0-java), whose proxy builder implements the generated `*ApiSpec`
//   interfaces, as the generator's CXF descendant does with JAXRSClientFactory.
// - A getter for the discriminator on each class a discriminator picks: the generator removes that property from
//   the class (Jackson consumes it to choose the class), so ForbiddenError, SlotUnavailableError... would have no
//   `getError()` while every other error class has one. The value is fixed per class, so the getter returns it.
const base = require('@openapi-generator-plus/java-jaxrs-client-generator');

function specInterface(group, ctx) {
  return `${ctx.root.apiSpecPackage}.${ctx.generatorContext.generator().toClassName(group.name)}ApiSpec`;
}

function injectApi(group, name, ctx) {
  return `private final ${specInterface(group, ctx)} ${name};`;
}

/** The constructor: a RESTEasy target (base URL, JSON provider, authentication filter) made into the spec proxy. */
function apiImplClassBody(group, ctx) {
  const impl = `${ctx.generatorContext.generator().toClassName(group.name)}ApiImpl`;
  return (
    `public ${impl}(javax.ws.rs.client.WebTarget target) {\n` +
    `\t\tthis.api = ((org.jboss.resteasy.client.jaxrs.ResteasyWebTarget) target).proxy(${specInterface(group, ctx)}.class);\n` +
    '\t}\n'
  );
}

/** `getError()` (for a discriminator named `error`) returning the one value that selects this class. */
function pojoFooter(schema) {
  const values = new Map();
  for (const entry of schema.discriminatorValues ?? []) {
    if (entry.discriminator) values.set(entry.discriminator.name, entry);
  }
  return [...values.entries()]
    .map(([name, entry]) => {
      const getter = `get${name[0].toUpperCase()}${name.slice(1)}`;
      // The literal is a constant of the property's own enum (`...ForbiddenError.ErrorEnum.FORBIDDEN`), as the
      // other error classes' getError() returns, or a string literal.
      const type = entry.literalValue.startsWith('"')
        ? 'java.lang.String'
        : entry.literalValue.slice(0, entry.literalValue.lastIndexOf('.'));
      return (
        `/**\n * <p>The <code>${entry.discriminator.serializedName}</code> of this body: always <code>${entry.value}</code> ` +
        `(the discriminator that selects this class).</p>\n */\n` +
        `@com.fasterxml.jackson.annotation.JsonProperty(${JSON.stringify(entry.discriminator.serializedName)})\n` +
        `public ${type} ${getter}() {\n\treturn ${entry.literalValue};\n}\n`
      );
    })
    .join('\n');
}

function createGenerator(config, context) {
  return base.default(config, {
    ...context,
    templates: { ...context.templates, injectApi, apiImplClassBody, pojoFooter },
  });
}

module.exports = { ...base, default: createGenerator };
