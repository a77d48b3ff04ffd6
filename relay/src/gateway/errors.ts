import type { ProtocolError, ProtocolErrorCode } from '@tandem/shared';
import { DomainError, type ErrorCode } from '../errors';

/** The relay's code for each of the extension's: its own `bad_request` is the relay sending a bad command. */
const CODES: Record<ProtocolErrorCode, ErrorCode> = {
  restricted_page: 'restricted_page',
  api_disabled: 'api_disabled',
  navigation_failed: 'navigation_failed',
  stale_element: 'stale_element',
  tab_closed: 'tab_closed',
  timeout: 'extension_unavailable',
  disconnected: 'extension_unavailable',
  bad_request: 'internal',
  internal: 'internal',
};

/** A command the extension refused or could not run, rebuilt from the wire `{code, message}`. */
export class ExtensionCommandError extends DomainError {
  /** The extension's code, as the wire carried it. */
  readonly extensionCode: ProtocolErrorCode;

  constructor(error: ProtocolError) {
    const retriable = error.code === 'disconnected' || error.code === 'timeout';
    super(CODES[error.code], error.message, retriable ? 2 : undefined);
    this.extensionCode = error.code;
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
