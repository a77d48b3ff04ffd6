import { type Logger, pino } from 'pino';

export type { Logger };

/** JSON logs; pretty ones when a person is watching a terminal. */
export function createLogger(level: string): Logger {
  const pretty = process.stdout.isTTY && !process.env.CI;
  return pino({
    level,
    base: undefined,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.x_service_api_key', '*.password', '*.token'],
      remove: true,
    },
    ...(pretty
      ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' } } }
      : {}),
  });
}
