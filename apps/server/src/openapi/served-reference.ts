import type { RequestHandler } from 'express';
import swaggerUi from 'swagger-ui-express';
import { buildOpenApiDocument } from './openapi-document.js';
import { serializeDocument } from './serialize.js';

/**
 * `/openapi.json` and the interactive reference at `/docs`, both generated from the contract. Generated at the first
 * request that wants them rather than at start: the document takes ~100 ms to build in a cold process, a tenth of a
 * first start's budget, and most processes (and every test app) never serve it.
 */
export function servedReference(publicUrl: string): { json: RequestHandler; page: RequestHandler[] } {
  let built: { json: string; page: RequestHandler } | undefined;
  const reference = () => {
    if (!built) {
      const document = buildOpenApiDocument(publicUrl);
      built = {
        json: serializeDocument(document),
        page: swaggerUi.setup(document, { customSiteTitle: 'Partner Booking API', customCss: '' }),
      };
    }
    return built;
  };
  return {
    json: (_req, res) => void res.type('application/json').send(reference().json),
    page: [...swaggerUi.serve, (req, res, next) => reference().page(req, res, next)],
  };
}
