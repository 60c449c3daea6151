import { dashboardContract } from '@spa/contract/dashboard';
import { initServer } from '@ts-rest/express';
import { isoSeconds } from '../lib/instant.js';
import { actorOf, requestOriginOf } from './dashboard-actor.js';
import type { DashboardDeps } from './dashboard-deps.js';
import { CONFIRMATION_WINDOW } from './guards.js';
import { describeActor } from './me.js';
import { clearSessionCookie, setSessionCookie } from './session-cookie.js';
import {
  changePassword,
  confirmPassword,
  endSession,
  listSessions,
  signIn,
  signOut,
  signOutEverywhere,
} from './session.service.js';

export function sessionRouter(deps: DashboardDeps) {
  return initServer().router(dashboardContract.session, {
    signIn: async ({ body, req, res }) => {
      const { token, actor } = await signIn(deps, body, requestOriginOf(req));
      setSessionCookie(res, token, deps.secureCookies);
      return { status: 200, body: { data: await describeActor(deps.db, deps.clock, actor) } };
    },
    me: async ({ res }) => ({
      status: 200,
      body: { data: await describeActor(deps.db, deps.clock, actorOf(res)) },
    }),
    signOut: async ({ req, res }) => {
      await signOut(deps, actorOf(res), requestOriginOf(req));
      clearSessionCookie(res, deps.secureCookies);
      return { status: 204, body: undefined };
    },
    confirm: async ({ body, req, res }) => {
      const at = await confirmPassword(deps, actorOf(res), body.password, requestOriginOf(req));
      return { status: 200, body: { data: { confirmed_until: isoSeconds(at.add(CONFIRMATION_WINDOW)) } } };
    },
    changePassword: async ({ body, req, res }) => {
      const ended = await changePassword(
        deps,
        actorOf(res),
        { currentPassword: body.current_password, newPassword: body.new_password },
        requestOriginOf(req),
      );
      return { status: 200, body: { data: { sessions_ended: ended } } };
    },
    sessions: async ({ res }) => ({ status: 200, body: { data: await listSessions(deps, actorOf(res)) } }),
    endSession: async ({ params, req, res }) => {
      await endSession(deps, actorOf(res), params.id, requestOriginOf(req));
      return { status: 204, body: undefined };
    },
    signOutEverywhere: async ({ req, res }) => {
      await signOutEverywhere(deps, actorOf(res), requestOriginOf(req));
      clearSessionCookie(res, deps.secureCookies);
      return { status: 204, body: undefined };
    },
  });
}
