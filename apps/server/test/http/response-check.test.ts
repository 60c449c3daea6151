import { initContract, ResponseValidationError } from '@ts-rest/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkResponses, ResponseShapeError } from '../../src/http/response-check.js';

const c = initContract();
const contract = c.router({
  item: { method: 'GET', path: '/item', responses: { 200: z.object({ id: z.string(), size: z.number() }) } },
  nested: {
    list: {
      method: 'GET',
      path: '/items',
      responses: { 200: z.object({ data: z.array(z.object({ id: z.string() })) }) },
    },
  },
});

/** A router whose handlers answer what the test hands them. */
function routerAnswering(item: unknown, list: unknown) {
  return {
    item: () => Promise.resolve({ status: 200, body: item }),
    nested: { list: { middleware: [], handler: () => Promise.resolve({ status: 200, body: list }) } },
  };
}

const call = (handler: unknown) => (handler as (args: unknown) => Promise<{ status: number; body: unknown }>)({});

describe('checkResponses: what tests run so production may send bodies unparsed', () => {
  it('passes an answer its schema leaves as it is, the same object', async () => {
    const body = { id: 'a', size: 2 };
    const checked = checkResponses(contract, routerAnswering(body, { data: [{ id: 'b' }] }));
    expect((await call(checked.item)).body).toBe(body);
    expect((await call(checked.nested.list.handler)).body).toEqual({ data: [{ id: 'b' }] });
  });

  it('rejects an answer that breaks its schema, as ts-rest response validation does', async () => {
    const checked = checkResponses(contract, routerAnswering({ id: 'a', size: 'big' }, { data: [] }));
    await expect(call(checked.item)).rejects.toBeInstanceOf(ResponseValidationError);
  });

  it('rejects a key the schema does not have, which parsing would have stripped', async () => {
    const checked = checkResponses(contract, routerAnswering({ id: 'a', size: 2 }, { data: [{ id: 'b', secret: 1 }] }));
    await expect(call(checked.nested.list.handler)).rejects.toThrow(ResponseShapeError);
  });

  it('rejects keys in another order than the schema, which parsing would have reordered', async () => {
    const checked = checkResponses(contract, routerAnswering({ size: 2, id: 'a' }, { data: [] }));
    await expect(call(checked.item)).rejects.toThrow(/GET \/item answered 200 with a body its schema changes/);
  });
});
