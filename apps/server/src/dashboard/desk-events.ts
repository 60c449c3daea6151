import type { Request, RequestHandler, Response } from 'express';
import type { Clock } from '../lib/clock.js';
import type { Db } from '../db/connect.js';
import { actorOf } from './dashboard-actor.js';
import type { DeskFeed, VenueChange } from './desk-feed.js';
import { visibleVenues } from './me.js';
import { IDLE_TIMEOUT } from './session.service.js';
import { sessionTokenOf } from './session-cookie.js';
import { findLiveSession } from './sessions.repository.js';
import { hashToken } from './tokens.js';

/** Notices of one burst (a booking's room and therapist holds, an import) reach a page as one event. */
const COALESCE_MS = 250;
/** A comment line this often keeps proxies from closing a quiet stream, and checks the session is still live. */
const HEARTBEAT_MS = 25_000;

/**
 * GET /dashboard/api/desk/events: server-sent events for the venue desk. `change` (data: the venue ids) when a
 * booking of a venue the person sees may have changed, and the page reads the desk again (one call); `ended` when
 * the session ends (the page then signs in again). Without a feed (an app built without one) the stream says
 * `{"live":false}` in its first event and the page polls instead.
 */
export function deskEvents(deps: { db: Db; clock: Clock; feed: DeskFeed | undefined }): RequestHandler {
  return (req, res, next) => {
    const actor = actorOf(res);
    visibleVenues(deps.db, actor).then(
      (venues) =>
        open(
          req,
          res,
          venues.map((v) => v.id),
        ),
      next,
    );
  };

  function open(req: Request, res: Response, venueIds: string[]) {
    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    res.setHeader('X-Accel-Buffering', 'no');
    res.flushHeaders();
    const write = (text: string) => void res.write(text);
    write(`retry: 5000\nevent: ready\ndata: ${JSON.stringify({ live: deps.feed !== undefined })}\n\n`);
    const seen = new Set(venueIds);
    let pending: Set<string> | undefined;
    let timer: NodeJS.Timeout | undefined;
    const flush = () => {
      timer = undefined;
      const venues = [...(pending ?? [])];
      pending = undefined;
      write(`event: change\ndata: ${JSON.stringify({ venues })}\n\n`);
    };
    const onChange = (change: VenueChange) => {
      const mine = change === '*' ? venueIds : change.filter((id) => seen.has(id));
      if (mine.length === 0) return;
      pending ??= new Set();
      for (const id of mine) pending.add(id);
      timer ??= setTimeout(flush, COALESCE_MS);
    };
    const tokenHash = hashToken(sessionTokenOf(req) ?? '');
    // The session is checked, not used: an open page alone does not keep it from its idle timeout.
    const live = () => {
      const now = deps.clock.now();
      return findLiveSession(deps.db, tokenHash, now, now.subtract(IDLE_TIMEOUT));
    };
    const heartbeat = setInterval(() => {
      live().then(
        (session) => {
          if (session) return write(': ping\n\n');
          write('event: ended\ndata: {}\n\n');
          end();
        },
        () => write(': ping\n\n'),
      );
    }, HEARTBEAT_MS);
    const unsubscribe = deps.feed?.subscribe(onChange);
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      clearInterval(heartbeat);
      clearTimeout(timer);
      unsubscribe?.();
      untrack?.();
      res.end();
    };
    const untrack = deps.feed?.track(end);
    req.on('close', end);
  }
}
