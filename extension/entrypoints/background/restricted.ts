import { CommandFailure } from './errors';

const WEB_STORE_HOSTS = new Set(['chrome.google.com', 'chromewebstore.google.com', 'microsoftedge.microsoft.com']);

/**
 * Pages Chrome does not let extensions script or capture: browser pages, the web store, other
 * extensions' pages. Refused up front with `restricted_page` rather than failing half-way.
 */
export function restrictedReason(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.protocol === 'http:' || url.protocol === 'https:') {
    if (
      WEB_STORE_HOSTS.has(url.hostname) &&
      (url.hostname !== 'chrome.google.com' || url.pathname.startsWith('/webstore'))
    )
      return 'the Chrome Web Store does not allow extensions to read or act on it';
    return undefined;
  }
  if (raw === 'about:blank' || url.protocol === 'data:') return undefined;
  if (url.protocol === 'chrome-extension:' || url.protocol === 'moz-extension:')
    return "other extensions' pages are off limits to extensions";
  return `${url.protocol}// pages belong to the browser and extensions cannot act on them`;
}

export function assertAllowed(url: string): void {
  const reason = restrictedReason(url);
  if (reason)
    throw new CommandFailure(
      'restricted_page',
      `${url} is a restricted page: ${reason}. Open an ordinary http(s) page instead.`,
    );
}
