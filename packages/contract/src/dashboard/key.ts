import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { single, UtcInstant } from '../common.js';
import { failure } from '../errors.js';
import { Scope } from '../scopes.js';
import {
  dashboardErrors,
  forbidden,
  forbiddenOrUnconfirmed,
  KeyNotFoundErrorBody,
  SentenceErrorBody,
} from './errors.js';
import { statuses } from '../statuses.js';

const c = initContract();

/** The organisation's dashboard key without its secret. A dashboard key covers every venue of the organisation. */
export const DashboardKey = z.object({
  id: z
    .string()
    .regex(/^[0-9a-f]{12}$/)
    .describe('The key id: 12 hexadecimal characters, the part after sk_live_ or sk_test_'),
  scopes: z.array(Scope),
  rate_limit_per_min: z.number().int().positive().nullable().describe('null: the server default'),
  created_at: UtcInstant,
  livemode: z.boolean().describe('true: the live key (sk_live_); false: the test key (sk_test_), test data only'),
});

/** The key with its full `sk_live_…` or `sk_test_…` value: only the reveal and regenerate answers carry it. */
export const RevealedKey = DashboardKey.extend({ key: z.string().describe('The full key, sk_live_… or sk_test_…') });

const noKey = failure(
  '`Key not found`: the organisation has no active dashboard key (regenerate makes one)',
  KeyNotFoundErrorBody,
);

export const keyContract = c.router({
  get: {
    method: 'GET',
    path: '/key',
    responses: statuses({
      200: single(DashboardKey.nullable().describe('null: no active dashboard key')),
      ...dashboardErrors,
      403: forbidden,
    }),
    summary: 'The dashboard key, without its secret (admin)',
  },
  reveal: {
    method: 'POST',
    path: '/key/reveal',
    body: c.noBody(),
    responses: statuses({ 200: single(RevealedKey), ...dashboardErrors, 403: forbiddenOrUnconfirmed, 404: noKey }),
    summary: 'Show the full key (admin, password confirmed within 5 minutes)',
  },
  regenerate: {
    method: 'POST',
    path: '/key/regenerate',
    body: z
      .object({
        key_id: z
          .string()
          .regex(/^[0-9a-f]{12}$/)
          .optional()
          .describe(
            'The key the page shows, which this replaces: when someone replaced it first, 409 instead of replacing theirs (default: the key active when the request arrives)',
          ),
      })
      .strict()
      .optional(),
    responses: statuses({
      200: single(RevealedKey),
      ...dashboardErrors,
      403: forbiddenOrUnconfirmed,
      409: failure('Someone else regenerated this key a moment before; the sentence says so', SentenceErrorBody),
    }),
    summary: 'Replace the key: the old one answers 401 at once (admin, password confirmed within 5 minutes)',
  },
});
