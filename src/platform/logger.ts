import { pino, type DestinationStream, type Logger } from 'pino';
import { logDestination } from './log-destination.ts';

export type { Logger };

/** Query parameters that carry a secret (the webhook routes take their shared token as ?token=). */
const SECRET_PARAMS = /([?&](?:token|key|api_key|apikey|secret|signature)=)[^&#]*/gi;

/** The URL as logged: secrets in the query string replaced, so a log reader cannot replay them. */
export function redactUrl(url: string | undefined): string | undefined {
  // Most URLs carry no query string: skip the pattern for them (it runs on every access line).
  return url?.includes('?') ? url.replace(SECRET_PARAMS, '$1[redacted]') : url;
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
  /** Where lines go (tests capture them); standard output by default (see logDestination). */
  destination?: DestinationStream;
}

/**
 * The one logger of a process, shared by the HTTP server and every service. Credentials never reach
 * a log line: API keys and authorization headers are censored wherever an object carrying them is
 * logged, and query-string secrets are cut from logged URLs.
 */
export function createLogger(options: LoggerOptions): Logger {
  const destination = options.destination ?? logDestination();
  const flushable = destination as { flush?: () => void };
  const flush = () => {
    try {
      flushable.flush?.();
    } catch {
      // The destination is closed (the process is ending): pino wrote what it held on the way out.
    }
  };
  return pino(
    {
      level: options.level,
      // Routine lines wait for the next block; a warning or an error is written at once.
      hooks: {
        logMethod(args, method, level) {
          method.apply(this, args);
          if (level >= 40) flush();
        },
      },
      redact: {
        paths: [
          'req.headers["x-api-key"]',
          'req.headers.authorization',
          'req.headers["x-leadmagic-key"]',
          'req.headers.cookie',
          'headers["x-api-key"]',
          'headers.authorization',
          'headers["x-leadmagic-key"]',
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
    destination,
  );
}
