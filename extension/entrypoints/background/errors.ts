import type { ProtocolError, ProtocolErrorCode } from '@tandem/shared';

/** A command failure that crosses the wire as `{code, message}`. */
export class CommandFailure extends Error {
  constructor(
    readonly code: ProtocolErrorCode,
    message: string,
  ) {
    super(message);
  }

  toWire(): ProtocolError {
    return { code: this.code, message: this.message };
  }
}

/** Any thrown value as wire data. */
export function toProtocolError(error: unknown): ProtocolError {
  if (error instanceof CommandFailure) return error.toWire();
  const message = error instanceof Error ? error.message : String(error);
  if (/No tab with id/i.test(message)) return { code: 'tab_closed', message: 'The session tab was closed.' };
  return { code: 'internal', message };
}
