import { DomainError } from '../errors';
import { clip } from '../quote';

/** The page could not be opened: DNS failure, refused connection, timeout, bad certificate. */
export class NavigationFailed extends DomainError {
  constructor(url: string, reason: string) {
    super(
      'navigation_failed',
      `Could not open ${clip(url, 200)}: ${reason}. Check that the URL is right and the site is reachable from the relay.`,
    );
  }
}

/** What a refusal by the address policy tells the client or the agent to do about it. */
export const PRIVATE_NETWORK_HINT =
  'this relay keeps remote sessions out of private networks; its operator can allow a host with TANDEM_ALLOW_HOSTS, or all of them with TANDEM_ALLOW_PRIVATE_NETWORK=true';

/** The address policy refused the page: a loopback, private or otherwise non-public address. */
export class NavigationRefused extends DomainError {
  constructor(url: string, reason: string) {
    super('navigation_refused', `${url} was not opened: ${reason}, and ${PRIVATE_NETWORK_HINT}.`);
  }
}

/** The account's guardrails do not let its sessions open this host. */
export class GuardrailRefused extends DomainError {
  constructor(url: string, reason: string) {
    super(
      'navigation_refused',
      `${url} was not opened: ${reason}. The account's guardrails are on the console's Skills page (or PUT /v1/console/guardrails).`,
    );
  }
}

/** The browser behind a session stopped (crash, lost connection to the browser server). */
export class BrowserGone extends DomainError {
  constructor(detail: string) {
    super(
      'browser_gone',
      `The session's browser stopped unexpectedly (${detail}). Create a new session; the relay starts a new browser by itself.`,
    );
  }
}

/** The page's scripts kept its main thread busy even after the relay stopped them, so its tab was closed. */
export class PageUnresponsive extends DomainError {
  /** `now`: where the session is after the relay closed the page's tab ("" for a new blank tab). */
  constructor(url: string, stops: number, now: string) {
    super(
      'page_unresponsive',
      `The page at ${url} stopped responding: its scripts kept running without a pause, even after being stopped ${stops} times, so its tab was closed. The session goes on ${now ? `in its previous tab, at ${now}` : 'in a new blank tab'}: open a page to continue.`,
    );
  }
}

/** No browser could be started or reached at all. */
export class BrowserUnavailable extends DomainError {
  constructor(detail: string) {
    super('browser_unavailable', `No browser is available: ${detail}`, 5);
  }
}

/** Rewrites Playwright's long error text into the short reason a client can act on. */
export function describeNavigationError(error: unknown, timeoutMs: number): string {
  const text = error instanceof Error ? error.message : String(error);
  if (/Timeout \d+ms exceeded|TimeoutError/.test(text))
    return `the page did not load within ${Math.round(timeoutMs / 1000)} s`;
  const net = /net::(ERR_[A-Z_]+)/.exec(text)?.[1];
  if (net) {
    const words: Record<string, string> = {
      ERR_NAME_NOT_RESOLVED: 'the host name could not be resolved',
      ERR_CONNECTION_REFUSED: 'the connection was refused',
      ERR_CONNECTION_RESET: 'the connection was reset',
      ERR_CONNECTION_TIMED_OUT: 'the connection timed out',
      ERR_ADDRESS_UNREACHABLE: 'the address is unreachable',
      ERR_INTERNET_DISCONNECTED: 'the relay has no network connection',
      ERR_CERT_AUTHORITY_INVALID: 'its TLS certificate is not trusted',
      ERR_CERT_COMMON_NAME_INVALID: 'its TLS certificate does not match the host',
      ERR_TUNNEL_CONNECTION_FAILED: 'the proxy could not connect to it',
      ERR_PROXY_CONNECTION_FAILED: 'the proxy could not be reached',
      ERR_EMPTY_RESPONSE: 'the server sent an empty response',
      ERR_UNSAFE_PORT: 'browsers refuse to connect to that port',
      ERR_ABORTED: 'the navigation was aborted (the URL may be a download)',
    };
    return `${words[net] ?? 'a network error occurred'} (${net})`;
  }
  return text.split('\n')[0] ?? text;
}
