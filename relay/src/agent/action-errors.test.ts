import { describe, expect, it } from 'vitest';
import { BrowserGone, BrowserUnavailable, NavigationFailed } from '../browser/errors';
import { BadRequest, DomainError } from '../errors';
import { ExtensionCommandError, MESSAGES } from '../gateway/errors';
import { isActionFailure } from './action-errors';

describe('isActionFailure', () => {
  it('fails the step when the browser is gone or may not be driven', () => {
    expect(isActionFailure(new BrowserGone('the tab was closed in the browser'))).toBe(false);
    expect(isActionFailure(new BrowserUnavailable('no Chromium'))).toBe(false);
    // api_disabled answers 400, yet the browser may not be driven at all: not the action's fault.
    expect(isActionFailure(new ExtensionCommandError({ code: 'api_disabled', message: MESSAGES.apiDisabled }))).toBe(
      false,
    );
    expect(isActionFailure(new ExtensionCommandError({ code: 'disconnected', message: MESSAGES.disconnected }))).toBe(
      false,
    );
    expect(
      isActionFailure(new ExtensionCommandError({ code: 'timeout', message: MESSAGES.timeout('act', 30_000) })),
    ).toBe(false);
    expect(isActionFailure(new DomainError('internal', 'the relay broke'))).toBe(false);
  });

  it('keeps refusals of the one action as the action’s failure, for the agent to work around', () => {
    expect(isActionFailure(new ExtensionCommandError({ code: 'stale_element', message: 'gone' }))).toBe(true);
    expect(isActionFailure(new ExtensionCommandError({ code: 'restricted_page', message: 'chrome://' }))).toBe(true);
    expect(isActionFailure(new NavigationFailed('http://x.invalid/', 'the host name could not be resolved'))).toBe(
      true,
    );
    expect(isActionFailure(new BadRequest('10.0.0.1 is a private or loopback address'))).toBe(true);
    expect(isActionFailure(new Error('locator.click: element is not attached'))).toBe(true);
  });
});
