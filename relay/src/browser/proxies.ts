import { BadRequest } from '../errors';

export interface ProxySettings {
  server: string;
  username?: string;
  password?: string;
}

/**
 * Round-robin over TANDEM_PROXY_URLS. A `{session}` placeholder in a username is replaced by the
 * session id, which rotating residential gateways read as "give this session its own IP".
 */
export class ProxyPool {
  private readonly urls: URL[];
  private next = 0;

  constructor(list: string | undefined) {
    this.urls = (list ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
      .map((s, i) => {
        try {
          return new URL(s);
        } catch {
          // The list holds passwords: say which entry, not what it says.
          throw new Error(`TANDEM_PROXY_URLS: entry ${i + 1} is not a URL such as http://user:pass@proxy.example:8080`);
        }
      });
  }

  get size(): number {
    return this.urls.length;
  }

  /** The proxy for a new session; 400 when none is configured. */
  take(sessionId: string): ProxySettings {
    return this.pick(sessionId).proxy;
  }

  /**
   * The proxy for a session: the next in turn, or the one at `index` again (a parked session coming back,
   * on any relay with the same TANDEM_PROXY_URLS). Its index is what the store keeps, never the URL.
   */
  pick(sessionId: string, index?: number): { index: number; proxy: ProxySettings } {
    const at = (index ?? this.next++) % Math.max(this.urls.length, 1);
    return { index: at, proxy: this.settings(sessionId, at) };
  }

  private settings(sessionId: string, index: number): ProxySettings {
    const url = this.urls[index];
    if (!url) {
      throw new BadRequest(
        'use_proxy is true but this relay has no proxy configured. Set TANDEM_PROXY_URLS to a comma-separated list of proxy URLs, or send use_proxy: false.',
      );
    }
    const username = decodeURIComponent(url.username).replaceAll('{session}', sessionId.replaceAll('_', ''));
    const password = decodeURIComponent(url.password);
    return {
      server: `${url.protocol}//${url.host}`,
      ...(username ? { username } : {}),
      ...(password ? { password } : {}),
    };
  }
}
