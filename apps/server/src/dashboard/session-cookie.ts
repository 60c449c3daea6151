import { parseCookie, stringifySetCookie } from 'cookie';
import type { Request, Response } from 'express';

export const SESSION_COOKIE = 'spa_session';

/** The cookie's scope: the dashboard and its API only, never the partner API. */
const COOKIE_PATH = '/dashboard';

/** The session token the browser sent, if any. */
export function sessionTokenOf(req: Request): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  const token = parseCookie(header)[SESSION_COOKIE];
  return token ? token : undefined;
}

/**
 * HttpOnly (no script reads it), SameSite=Lax (not sent on cross-site POSTs), Path=/dashboard, Secure when the
 * public URL is https. No Max-Age: the server ends the session (idle 30 min, absolute 12 h), the browser's copy
 * goes with the browser session.
 */
export function setSessionCookie(res: Response, token: string, secure: boolean): void {
  res.append(
    'Set-Cookie',
    stringifySetCookie(SESSION_COOKIE, token, { httpOnly: true, sameSite: 'lax', path: COOKIE_PATH, secure }),
  );
}

export function clearSessionCookie(res: Response, secure: boolean): void {
  res.append(
    'Set-Cookie',
    stringifySetCookie(SESSION_COOKIE, '', {
      httpOnly: true,
      sameSite: 'lax',
      path: COOKIE_PATH,
      secure,
      maxAge: 0,
    }),
  );
}
