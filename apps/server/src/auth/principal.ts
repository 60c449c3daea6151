import type { Scope } from '@spa/contract';
import type { Response } from 'express';

/** Who is calling: the verified key, never its secret. */
export interface Principal {
  keyId: string;
  organisationId: string;
  /** Null for a platform-wide key; otherwise the one venue the key may touch. */
  venueId: string | null;
  scopes: ReadonlySet<Scope>;
  rateLimitPerMin: number | null;
  /** The key's mode: a test key reads and writes test data only, a live key live data only. */
  livemode: boolean;
}

export function principalOf(res: Response): Principal {
  const principal = res.locals.principal as Principal | undefined;
  if (!principal) throw new Error('Route reached without authentication');
  return principal;
}
