import { type RequestHandler, Router } from 'express';

/**
 * `/openapi.json` and the interactive reference at `/docs`, both generated from the contract. Generated at the first
 * request that wants them rather than at start, with the modules that generate them (@ts-rest/open-api,
 * @anatine/zod-openapi, swagger-ui-express): the document takes ~100 ms to build in a cold process and those modules
 * ~30 ms to load, on a first start that has 2 s in all, and most processes (and every test app) never serve it.
 */
export function servedReference(publicUrl: string): { json: RequestHandler; page: RequestHandler } {
  let built: Promise<{ json: string; page: RequestHandler }> | undefined;
  const reference = () =>
    (built ??= (async () => {
      const [{ buildOpenApiDocument }, { serializeDocument }, { default: swaggerUi }] = await Promise.all([
        import('./openapi-document.js'),
        import('./serialize.js'),
        import('swagger-ui-express'),
      ]);
      const document = buildOpenApiDocument(publicUrl);
      return {
        json: serializeDocument(document),
        page: Router().use(
          swaggerUi.serve,
          swaggerUi.setup(document, { customSiteTitle: 'Partner Booking API', customCss: '' }),
        ),
      };
    })());
  return {
    json: (_req, res, next) => void reference().then(({ json }) => res.type('application/json').send(json), next),
    page: (req, res, next) => void reference().then(({ page }) => page(req, res, next), next),
  };
}
