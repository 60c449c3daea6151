import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { CheckedTarget } from './safe-target.js';

/** An attempt succeeds on a 2xx within this time (docs/decisions.md, "Webhooks"). */
export const ATTEMPT_TIMEOUT_MS = 10_000;
/** The part of a receiver's answer kept in the attempt log (the dashboard shows it with each attempt). */
export const RESPONSE_LOG_BYTES = 4096;

export interface AttemptOutcome {
  ok: boolean;
  statusCode: number | null;
  /** The start of the response body (for the log), or null without a response. */
  responseBody: string | null;
  /** Why it failed, in words; null on success. */
  error: string | null;
  durationMs: number;
}

/**
 * Attempts a process runs at once, and the sockets its agents may open: sized together, so an attempt never waits
 * for a socket (the engine claims no more than this; webhook-engine.ts).
 */
export const WEBHOOK_SOCKETS = 16;

// Keep-alive pools: a busy endpoint reuses its connection. The pool key includes the checked address.
const agents = {
  'https:': new https.Agent({ keepAlive: true, maxSockets: WEBHOOK_SOCKETS, maxTotalSockets: WEBHOOK_SOCKETS }),
  'http:': new http.Agent({ keepAlive: true, maxSockets: WEBHOOK_SOCKETS, maxTotalSockets: WEBHOOK_SOCKETS }),
};

/**
 * One POST to the checked address (never a fresh DNS answer: no rebinding), TLS verified against the URL's host.
 * Redirects are answers like any other non-2xx: not followed. Node's http client, because the connection must
 * go to an address chosen here while the certificate and Host header name the URL's host.
 */
export function sendAttempt(
  target: CheckedTarget,
  headers: Record<string, string>,
  body: string,
  timeoutMs = ATTEMPT_TIMEOUT_MS,
): Promise<AttemptOutcome> {
  const started = performance.now();
  const { url } = target;
  const secure = url.protocol === 'https:';
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<AttemptOutcome, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...outcome, durationMs: Math.round(performance.now() - started) });
    };
    const request = (secure ? https : http).request({
      host: target.address,
      family: target.family,
      port: url.port || (secure ? 443 : 80),
      path: `${url.pathname}${url.search}`,
      method: 'POST',
      agent: agents[secure ? 'https:' : 'http:'],
      ...(secure && !isIP(hostname) ? { servername: hostname } : {}),
      headers: {
        ...headers,
        host: url.host,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'user-agent': 'partner-booking-api-webhooks/1',
      },
    });
    // The receiver's 10 s start when the request has its socket, not while it waits for one; the wait itself is
    // bounded too (it should not happen: the engine runs no more attempts than there are sockets).
    const giveUp = (error: string) => () => {
      request.destroy();
      finish({ ok: false, statusCode: null, responseBody: null, error });
    };
    let timer = setTimeout(giveUp(`No socket free within ${timeoutMs / 1000} s`), timeoutMs);
    request.once('socket', () => {
      clearTimeout(timer);
      timer = setTimeout(giveUp(`No answer within ${timeoutMs / 1000} s`), timeoutMs);
    });
    request.on('error', (error: NodeJS.ErrnoException) =>
      finish({ ok: false, statusCode: null, responseBody: null, error: error.code ?? error.message }),
    );
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () => {
        const text = Buffer.concat(chunks).subarray(0, RESPONSE_LOG_BYTES).toString('utf8');
        const ok = status >= 200 && status < 300;
        const error = ok
          ? null
          : status >= 300 && status < 400
            ? `Redirect to ${response.headers.location ?? '(no location)'} not followed`
            : `HTTP ${status}`;
        finish({ ok, statusCode: status, responseBody: text, error });
      };
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        // Enough for the log: stop reading a large answer.
        if (size >= RESPONSE_LOG_BYTES) {
          done();
          response.destroy();
        }
      });
      response.on('end', done);
      response.on('error', done);
    });
    request.end(body);
  });
}
