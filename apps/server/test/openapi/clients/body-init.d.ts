// The @hey-api/openapi-ts client names the DOM's global `BodyInit`; this project compiles without the DOM library
// (Node's types declare fetch and Response but not that name), so it is declared here as what Response accepts.
type BodyInit = NonNullable<ConstructorParameters<typeof Response>[0]>;
