import { pino, type Logger } from 'pino';

/** Structured JSON logs. Keys never reach a log: the Authorization and X-Api-Key headers are redacted. */
export function createLogger(level = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({
    level,
    redact: {
      paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'secret', 'apiKey', 'key'],
      censor: '[redacted]',
    },
  });
}
