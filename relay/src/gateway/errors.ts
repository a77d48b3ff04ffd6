import type { ProtocolError, ProtocolErrorCode } from '@tandem/shared';
import { HttpError } from '../errors';

const STATUS: Record<ProtocolErrorCode, number> = {
  restricted_page: 400,
  api_disabled: 400,
  navigation_failed: 400,
  stale_element: 400,
  tab_closed: 404,
  timeout: 503,
  disconnected: 503,
  bad_request: 500,
  internal: 500,
};

/** A command the extension refused or could not run, rebuilt from the wire `{code, message}`. */
export class ExtensionCommandError extends HttpError {
  readonly code: ProtocolErrorCode;

  constructor(error: ProtocolError) {
    const retriable = error.code === 'disconnected' || error.code === 'timeout';
    super(STATUS[error.code], error.message, retriable ? { 'Retry-After': '2' } : {});
    this.code = error.code;
  }
}

/** Messages a person can act on, for the codes the relay raises itself. */
export const MESSAGES = {
  disconnected:
    'The Tandem extension disconnected while the command was in flight; it was not repeated. Check that the browser is running and retry.',
  apiDisabled:
    'API Enabled was turned off in the Tandem extension, so the relay may not drive this browser. Turn it on in the extension popup and retry.',
  timeout: (command: string, ms: number) =>
    `The Tandem extension did not answer ${command} within ${Math.round(ms / 1000)} s. Retry; if it keeps happening, reload the extension.`,
} as const;
