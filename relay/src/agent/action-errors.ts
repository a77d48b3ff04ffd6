import type { ProtocolErrorCode } from '@tandem/shared';
import { BrowserGone, BrowserUnavailable } from '../browser/errors';
import { DomainError } from '../errors';
import { ExtensionCommandError } from '../gateway/errors';

/**
 * Extension codes that are about the one action: the page or element refused it, and the agent can
 * read why and choose differently. Every other code (api_disabled, disconnected, timeout, bad_request,
 * internal) says the browser itself cannot be driven right now, which no other action will fix.
 */
const ACTION_LEVEL_CODES = new Set<ProtocolErrorCode>(['restricted_page', 'stale_element', 'navigation_failed']);

/**
 * Whether an error thrown while running one action is that action's failure (recorded, shown to the
 * planner, counted by failure control) rather than the step's. A browser that is gone or may no longer
 * be driven must fail the step with its own error — answered as CONTINUE, the client would keep
 * stepping a session that cannot act, and the agent would "try something else" against a dead browser.
 */
export function isActionFailure(error: unknown): boolean {
  if (error instanceof ExtensionCommandError) return ACTION_LEVEL_CODES.has(error.extensionCode);
  if (error instanceof BrowserGone || error instanceof BrowserUnavailable) return false;
  // The relay's own checks (a blocked or unreachable URL: NavigationFailed, BadRequest) are about the
  // action; anything else is the relay or the browser failing.
  if (error instanceof DomainError) return error.blamesRequest;
  // Anything else came out of the page while acting (a Playwright error on this element).
  return true;
}
