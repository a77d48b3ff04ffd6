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
  if (!options.allowPrivateNetwork) {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const addresses = isIP(host)
      ? [host]
      : await lookup(host, { all: true }).then(
          (all) => all.map((a) => a.address),
          () => [],
        );
    if (host === 'localhost' || addresses.some(isPrivateAddress)) {
      throw new BadRequest(
        `${url.host} is a private or loopback address, which this relay does not open. Set TANDEM_ALLOW_PRIVATE_NETWORK=true to allow it.`,
      );
    }
  }
  return url;
}
