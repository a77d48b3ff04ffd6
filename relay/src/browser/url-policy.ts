import { BadRequest } from '../errors';
import type { NetworkGuard } from '../network/network-guard';
import { NavigationFailed, NavigationRefused } from './errors';

/**
 * Only http(s) URLs; for a remote session (a `guard` given), none whose host the address policy refuses,
 * so a refused URL gets a clear 400 before anything is opened. This is the early answer, not the
 * enforcement: the egress proxy checks every connection the browser makes, this URL's included.
 */
export async function checkUrl(raw: string, guard?: NetworkGuard): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new BadRequest(`"${raw}" is not a valid URL. Give a full http(s) URL such as https://example.com.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new BadRequest(
      `Only http and https URLs can be opened, not ${url.protocol}. Give a URL such as https://example.com.`,
    );
  }
  const verdict = guard ? await guard.inspect(url.hostname) : undefined;
  if (verdict && !verdict.ok) {
    throw verdict.kind === 'private'
      ? new NavigationRefused(url.href, verdict.reason)
      : new NavigationFailed(url.href, verdict.reason);
  }
  return url;
}
