/**
 * A screenshot URL as the page loads it: the relay writes absolute URLs with its public address, which
 * may name the host differently from the one the console was opened on (localhost vs 127.0.0.1), and
 * the page's Content-Security-Policy only lets it load images from its own origin.
 */
export function sameOrigin(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url, location.href);
    return parsed.pathname.startsWith('/v1/web/screenshots/') ? parsed.pathname + parsed.search : url;
  } catch {
    return undefined;
  }
}
