import { BadRequest } from '../errors';
import type { NetworkGuard } from '../network/network-guard';
import { GuardrailRefused, NavigationFailed, NavigationRefused } from './errors';

/** Why the account's guardrails refuse a host, or undefined (see store/guardrails.ts). */
export type HostRefusal = (hostname: string) => string | undefined;

/**
 * Only http(s) URLs; for a remote session (a `guard` given), none whose host the address policy refuses,
 * so a refused URL gets a clear 400 before anything is opened; none the account's guardrails refuse.
 * This is the early answer, not the enforcement: the egress proxy checks every connection a remote
 * session's browser makes, this URL's included.
 */
export async function checkUrl(raw: string, guard?: NetworkGuard, refuse?: HostRefusal): Promise<URL> {
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
  const refusal = refuse?.(url.hostname);
  if (refusal) throw new GuardrailRefused(url.href, refusal);
  const verdict = guard ? await guard.inspect(url.hostname) : undefined;
  if (verdict && !verdict.ok) {
    throw verdict.kind === 'private'
      ? new NavigationRefused(url.href, verdict.reason)
      : new NavigationFailed(url.href, verdict.reason);
  }
  return url;
}
