import { describe, expect, it } from 'vitest';
import { ProxyPool } from './proxies';

describe('ProxyPool', () => {
  it('parses credentials, fills {session} and rotates', () => {
    const pool = new ProxyPool('http://user-{session}:p%40ss@gw.example:8000, socks5://10.0.0.1:1080');
    expect(pool.size).toBe(2);
    expect(pool.take('ses_n0_abc')).toEqual({
      server: 'http://gw.example:8000',
      username: 'user-sesn0abc',
      password: 'p@ss',
    });
    expect(pool.take('ses_n0_def')).toEqual({ server: 'socks5://10.0.0.1:1080' });
    expect(pool.take('ses_n0_ghi').server).toBe('http://gw.example:8000');
  });

  it('refuses use_proxy with a clear 400 when no proxy is configured', () => {
    expect(() => new ProxyPool(undefined).take('ses_x')).toThrow(/TANDEM_PROXY_URLS/);
  });

  it('names a malformed proxy URL', () => {
    expect(() => new ProxyPool('http://a:b@gw.example:1, not a url')).toThrow(
      /^TANDEM_PROXY_URLS: entry 2 is not a URL/,
    );
    expect(() => new ProxyPool('not a url')).not.toThrow(/not a url/);
  });
});
