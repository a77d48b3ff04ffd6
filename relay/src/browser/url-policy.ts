import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { BadRequest } from '../errors';

function isPrivateAddress(address: string): boolean {
  if (address.includes(':')) {
    const a = address.toLowerCase();
    if (a.startsWith('::ffff:')) return isPrivateAddress(a.slice(7));
    return a === '::1' || a === '::' || a.startsWith('fc') || a.startsWith('fd') || a.startsWith('fe80');
  }
  const [a = 0, b = 0] = address.split('.').map(Number);
  return (
    a === 10 ||
    a === 127 ||
    a === 0 ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 100 && b >= 64 && b <= 127)
  );
}

/**
 * Only http(s) URLs, and (unless private networks are allowed) none that resolve to loopback or
 * private addresses: a relay exposed to others must not become a door into its own network.
 */
export async function checkUrl(raw: string, options: { allowPrivateNetwork: boolean }): Promise<URL> {
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
  if (!options.allowPrivateNetwork && (await isPrivateHost(url.hostname))) {
    throw new BadRequest(
      `${url.host} is a private or loopback address, which this relay does not open. Set TANDEM_ALLOW_PRIVATE_NETWORK=true to allow it.`,
    );
  }
  return url;
}

/** Whether a host name is loopback or resolves to a private address (a name that does not resolve is not). */
async function isPrivateHost(hostname: string): Promise<boolean> {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const addresses = isIP(host)
    ? [host]
    : await lookup(host, { all: true }).then(
        (all) => all.map((a) => a.address),
        () => [],
      );
  return addresses.some(isPrivateAddress);
}

/** How long a host's verdict is reused: a page loads many resources from few hosts. */
const HOST_VERDICT_TTL_MS = 60_000;

/**
 * The check for every request a page makes (links it follows, forms it posts, redirects,
 * subresources), not only the URLs the relay opens: when private networks are off, a public page must
 * not lead the session into them. Answers the reason to refuse a URL, or undefined to let it pass.
 */
export function privateNetworkGuard(): (url: string) => Promise<string | undefined> {
  const verdicts = new Map<string, { at: number; private: Promise<boolean> }>();
  return async (raw) => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return undefined;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:' && url.protocol !== 'ws:' && url.protocol !== 'wss:') {
      return undefined; // data:, blob:, about: never leave the browser
    }
    let verdict = verdicts.get(url.hostname);
    if (!verdict || Date.now() - verdict.at > HOST_VERDICT_TTL_MS) {
      verdict = { at: Date.now(), private: isPrivateHost(url.hostname) };
      verdicts.set(url.hostname, verdict);
    }
    return (await verdict.private) ? `${url.host} is a private or loopback address` : undefined;
  };
}
