import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/** Query parameters that carry a secret (the webhook routes take their shared token as ?token=). */
const SECRET_PARAMS = /([?&](?:token|key|api_key|apikey|secret|signature)=)[^&#]*/gi;

/** The URL as logged: secrets in the query string replaced, so a log reader cannot replay them. */
export function redactUrl(url: string | undefined): string | undefined {
  return url?.replace(SECRET_PARAMS, '$1[redacted]');
}

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

export interface LoggerOptions {
  level: string;
  /** Where lines go (tests capture them); standard output by default. */
  destination?: DestinationStream;
}

/**
 * The one logger of a process, shared by the HTTP server and every service. Credentials never reach
 * a log line: API keys and authorization headers are censored wherever an object carrying them is
 * logged, and query-string secrets are cut from logged URLs.
 */
export function createLogger(options: LoggerOptions): Logger {
  return pino(
    {
      level: options.level,
      redact: {
        paths: [
          'req.headers["x-api-key"]',
          'req.headers.authorization',
          'req.headers.cookie',
          'headers["x-api-key"]',
          'headers.authorization',
          'headers.cookie',
        ],
        censor: '[redacted]',
      },
      serializers: {
        req: (req: LoggedRequest) => ({
          method: req.method,
          url: redactUrl(req.url),
          host: req.host,
          remoteAddress: req.ip,
          remotePort: req.socket?.remotePort,
        }),
        err: pino.stdSerializers.err,
      },
    },
    options.destination,
  );
}
