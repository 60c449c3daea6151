import { pino, type DestinationStream, type Logger } from 'pino';

/**
 * Structured JSON logs. Keys never reach a log: the Authorization and X-Api-Key headers are redacted.
 * Written to stdout unless a destination is given (the benchmark logs to /dev/null, paying what stdout costs).
 */
export function createLogger(level = process.env.LOG_LEVEL ?? 'info', destination?: DestinationStream): Logger {
  const options = {
    level,
    redact: {
      paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'secret', 'apiKey', 'key'],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
