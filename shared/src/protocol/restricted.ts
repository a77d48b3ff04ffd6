const WEB_STORE_HOSTS = new Set(['chrome.google.com', 'chromewebstore.google.com', 'microsoftedge.microsoft.com']);

/**
 * Why Chrome lets no extension script or capture this page (browser pages, the web store, other
 * extensions' pages), or undefined. The relay refuses these up front in local mode and the extension
 * refuses them again before acting, with the same words, so the user hears one reason either way.
 */
export function restrictedReason(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.protocol === 'http:' || url.protocol === 'https:') {
    const store =
      WEB_STORE_HOSTS.has(url.hostname) &&
      (url.hostname !== 'chrome.google.com' || url.pathname.startsWith('/webstore'));
    return store ? 'the Chrome Web Store does not allow extensions to read or act on it' : undefined;
  }
  if (raw === 'about:blank' || url.protocol === 'data:') return undefined;
  if (url.protocol === 'chrome-extension:' || url.protocol === 'moz-extension:')
    return "other extensions' pages are off limits to extensions";
  return `${url.protocol}// pages belong to the browser and extensions cannot act on them`;
}

/** The `restricted_page` message for a URL, or undefined when the page is not restricted. */
export function restrictedPageMessage(url: string): string | undefined {
  const reason = restrictedReason(url);
  return reason && `${url} is a restricted page: ${reason}. Open an ordinary http(s) page instead.`;
}
