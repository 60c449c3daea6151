import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../src/openapi/openapi-document.js';
import { serializeDocument } from '../../src/openapi/serialize.js';
import { setup, TEST_PUBLIC_URL } from '../support/test-app.js';

// Raw supertest: /openapi.json and /docs are not routes of the contract.

describe('the reference the server serves (built at its first request)', () => {
  const ctx = setup();

  it('serves /openapi.json: the document generated from the contract, with this server as its server', async () => {
    const first = await request(ctx.app)
      .get('/openapi.json')
      .expect(200)
      .expect('content-type', /application\/json/);
    expect(first.text).toBe(serializeDocument(buildOpenApiDocument(TEST_PUBLIC_URL)));
    expect(first.body.servers[0].url).toBe(TEST_PUBLIC_URL);
    expect((await request(ctx.app).get('/openapi.json').expect(200)).text).toBe(first.text);
  });

  it('serves the interactive reference at /docs, on the same document', async () => {
    const page = await request(ctx.app)
      .get('/docs/')
      .expect(200)
      .expect('content-type', /text\/html/);
    expect(page.text).toContain('<title>Partner Booking API</title>');
    const init = await request(ctx.app).get('/docs/swagger-ui-init.js').expect(200);
    // swagger-ui-express embeds the document, indented, in its init script.
    expect(init.text).toContain('"operationId": "createBooking"');
    expect(init.text).toContain(`"url": "${TEST_PUBLIC_URL}"`);
  });
});
