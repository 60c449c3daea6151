import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const GENERATOR_CLI = fileURLToPath(new URL('../../../../node_modules/.bin/openapi-generator-plus', import.meta.url));

/** The Debian jars the generated client compiles and runs against (all under /usr/share/java). */
export const JAVA_JARS = [
  'jackson-annotations', // libjackson2-annotations-java
  'jackson-core', // libjackson2-core-java
  'jackson-databind', // libjackson2-databind-java
  'jackson-jaxrs-base', // libjackson2-jaxrs-providers-java
  'jackson-jaxrs-json-provider',
  'jaxrs-api', // libjaxrs-api-java: JAX-RS 2.1
  'resteasy-client', // libresteasy3.0-java: the JAX-RS client and its proxies
  'resteasy-jaxrs',
  'jboss-logging', // libjboss-logging-java, and Apache HttpClient 4 (libhttpclient-java): RESTEasy's own dependencies
  'httpclient',
  'httpcore',
  'commons-logging',
  'jaxb-api', // libjaxb-api-java: the models' @XmlRootElement
  'javax.activation',
  'geronimo-annotation-1.3-spec', // libgeronimo-annotation-1.3-spec-java: @javax.annotation.Generated
  'swagger-annotations', // libswagger-core-java: the @Schema and @Operation annotations
].map((name) => `/usr/share/java/${name}.jar`);

/** The Debian packages that hold JAVA_JARS and the JDK (.ci/run installs them). */
export const JAVA_PACKAGES = [
  'openjdk-17-jdk-headless',
  'libjackson2-databind-java',
  'libjackson2-jaxrs-providers-java',
  'libjaxrs-api-java',
  'libresteasy3.0-java',
  'libjaxb-api-java',
  'libgeronimo-annotation-1.3-spec-java',
  'libswagger-core-java',
];

/**
 * Generates the Java client of the document with openapi-generator-plus's JAX-RS client generator (through
 * resteasy-generator.cjs, which fills in its client implementation), into `folder`, as sources a partner would
 * compile. Two adjustments to what it writes, both for the Debian jars, neither to the API it exposes:
 * - ApiProviders.java is left out: it registers jackson-datatype-jdk8 and -jsr310, which Debian does not package;
 *   BookingFlow.java configures Jackson for java.time itself.
 * - `@Schema(requiredMode = REQUIRED)` becomes `@Schema(required = true)`: Debian's swagger-annotations is 2.1.6,
 *   and `requiredMode` came in 2.2; the annotation is documentation, read by nothing at run time.
 */
export function generateJavaClient(documentPath: string, folder: string): void {
  rmSync(folder, { recursive: true, force: true });
  execFileSync(
    GENERATOR_CLI,
    ['-c', here('generator.yml'), '-g', here('resteasy-generator.cjs'), '-o', folder, documentPath],
    { stdio: 'pipe' },
  );
  for (const file of javaFiles(folder)) {
    if (file.endsWith('/ApiProviders.java')) {
      rmSync(file);
      continue;
    }
    const source = readFileSync(file, 'utf8');
    const adjusted = source.replace(
      /requiredMode = io\.swagger\.v3\.oas\.annotations\.media\.Schema\.RequiredMode\.(NOT_)?REQUIRED/g,
      (_match, not: string | undefined) => `required = ${not ? 'false' : 'true'}`,
    );
    if (adjusted !== source) writeFileSync(file, adjusted);
  }
}

/** Every .java file under `folder`. */
export function javaFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? javaFiles(path) : path.endsWith('.java') ? [path] : [];
  });
}

export const BOOKING_FLOW = here('BookingFlow.java');
