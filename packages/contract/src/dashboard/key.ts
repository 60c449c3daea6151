import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { single, UtcInstant } from '../common.js';
import { failure } from '../errors.js';
import { Scope } from '../scopes.js';
import { dashboardErrors, forbidden, forbiddenOrUnconfirmed, KeyNotFoundErrorBody } from './errors.js';
import { statuses } from '../statuses.js';

const c = initContract();

/** The organisation's dashboard key without its secret. A dashboard key covers every venue of the organisation. */
export const DashboardKey = z.object({
  id: z
    .string()
    .regex(/^[0-9a-f]{12}$/)
    .describe('The key id: 12 hexadecimal characters, the part after sk_live_'),
  scopes: z.array(Scope),
  rate_limit_per_min: z.number().int().positive().nullable().describe('null: the server default'),
  created_at: UtcInstant,
});

/** The key with its full `sk_live_…` value: only the reveal and regenerate answers carry it. */
export const RevealedKey = DashboardKey.extend({ key: z.string().describe('The full key, sk_live_…') });

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
    body: c.noBody(),
    responses: statuses({ 200: single(RevealedKey), ...dashboardErrors, 403: forbiddenOrUnconfirmed }),
    summary: 'Replace the key: the old one answers 401 at once (admin, password confirmed within 5 minutes)',
  },
});
