import pino from 'pino';

export type Logger = pino.Logger;

/** Structured JSON logs on stdout (one line per request is written by the request-log plugin). */
export function createLogger(level: string): Logger {
  return pino({ level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime });
}
