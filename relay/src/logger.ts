import { type DestinationStream, type Logger, pino } from 'pino';
import { redactor, redactUrls } from './redact';

export type { Logger };

export interface LoggerOptions {
  /** Literal secrets (configuredSecrets(config)) masked wherever they appear in a line. */
  secrets?: string[];
  /** Where lines go (default: stdout, pretty on a terminal). */
  destination?: DestinationStream | undefined;
}

/**
 * JSON logs; pretty ones when a person is watching a terminal. Every line is scrubbed as written:
 * credential headers are removed, configured secrets and URL credentials (`user:pass@`, `?token=`) are
 * masked, whatever field or message they hide in.
 */
export function createLogger(level: string, options: LoggerOptions = {}): Logger {
  const pretty = !options.destination && process.stdout.isTTY && !process.env.CI;
  const secrets = redactor(options.secrets ?? []);
  const scrub = (line: string) => redactUrls(secrets(line));
  return pino(
    {
      level,
      base: undefined,
      redact: {
        paths: [
          '*.headers.authorization',
          '*.headers.cookie',
          '*.headers["set-cookie"]',
          '*.headers.x_service_api_key',
          '*.headers["x-service-api-key"]',
          '*.headers["proxy-authorization"]',
          '*.password',
          '*.token',
        ],
        remove: true,
      },
      hooks: { streamWrite: scrub },
      ...(pretty
        ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' } } }
        : {}),
    },
    options.destination,
  );
}
