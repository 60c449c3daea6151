import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext, useEffect } from 'react';
import { api, setCsrfToken } from './client.js';
import { setMode } from '../lib/mode.js';
import { ApiError, ok } from './result.js';

export const SESSION_KEY = ['session'] as const;

/** Marks that this tab had a session, so a later "Not signed in" reads as an expiry rather than a first visit. */
const HAD_SESSION = 'spa-dashboard-had-session';

export function rememberSignedIn(signedIn: boolean): void {
  // Whoever signs in next starts live: a desk person must never ask for test data.
  setMode('live');
  if (signedIn) sessionStorage.setItem(HAD_SESSION, '1');
  else sessionStorage.removeItem(HAD_SESSION);
}

export function hadSession(): boolean {
  return sessionStorage.getItem(HAD_SESSION) === '1';
}

/** Who is signed in; `null` when nobody is. */
export function useSessionQuery() {
  return useQuery({
    queryKey: SESSION_KEY,
    queryFn: async () => {
      try {
        return await ok(api.session.me());
      } catch (error) {
        if (error instanceof ApiError && error.notSignedIn) return null;
        throw error;
      }
    },
    staleTime: 60_000,
  });
}

export type Me = NonNullable<ReturnType<typeof useSessionQuery>['data']>['data'];

const MeContext = createContext<Me | undefined>(undefined);

/** The signed-in person, inside the pages that need one (RequireSession provides it). */
export function useMe(): Me {
  const me = useContext(MeContext);
  if (!me) throw new Error('useMe outside a signed-in page');
  return me;
}

export function MeProvider({ me, children }: { me: Me; children: ReactNode }) {
  useEffect(() => setCsrfToken(me.csrf_token), [me.csrf_token]);
  setCsrfToken(me.csrf_token);
  return <MeContext.Provider value={me}>{children}</MeContext.Provider>;
}

/** Drops every cached answer of the person who was signed in. */
export function useForgetSession() {
  const queryClient = useQueryClient();
  return () => {
    setCsrfToken(undefined);
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== SESSION_KEY[0] });
    queryClient.setQueryData(SESSION_KEY, null);
  };
}

/** The venue a record belongs to, for its time zone and currency; the organisation's first venue otherwise. */
export function useVenue(venueId: string | undefined) {
  const me = useMe();
  return me.venues.find((venue) => venue.id === venueId);
}
