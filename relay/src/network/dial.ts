import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect as netConnect, type Socket } from 'node:net';
import { SocksClient } from 'socks';

/** The session's own proxy (use_proxy): `http://`, `https://`, `socks4://` or `socks5://`, with credentials. */
export interface UpstreamProxy {
  server: string;
  username?: string | undefined;
  password?: string | undefined;
}

/** Opens a TCP connection to a host (name or IP) and port: the network's one primitive, injectable in tests. */
export type Connect = (host: string, port: number) => Promise<Socket>;

/** How long a TCP connection (or a tunnel through the session's proxy) may take to open. */
export const CONNECT_TIMEOUT_MS = 15_000;

export const systemConnect: Connect = (host, port) =>
  new Promise((resolve, reject) => {
    // No Nagle: a relayed stream writes what it gets at once, or small writes wait on delayed ACKs.
    const socket = netConnect({ host, port, timeout: CONNECT_TIMEOUT_MS, noDelay: true });
    socket.once('connect', () => {
      socket.setTimeout(0);
      socket.off('error', reject);
      resolve(socket);
    });
    socket.once('timeout', () => socket.destroy(Object.assign(new Error('connect timed out'), { code: 'ETIMEDOUT' })));
    socket.once('error', reject);
  });

/** A connection that could not be opened, with the reason a person can act on. */
export class DialError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'DialError';
  }
}

/** A socket error in words, with the code Chromium would have shown had it connected itself. */
const ERROR_WORDS: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused (ERR_CONNECTION_REFUSED)',
  ECONNRESET: 'the connection was reset (ERR_CONNECTION_RESET)',
  ETIMEDOUT: 'the connection timed out (ERR_CONNECTION_TIMED_OUT)',
  EHOSTUNREACH: 'the address is unreachable (ERR_ADDRESS_UNREACHABLE)',
  ENETUNREACH: 'the address is unreachable (ERR_ADDRESS_UNREACHABLE)',
  ENOTFOUND: 'the host name could not be resolved (ERR_NAME_NOT_RESOLVED)',
  EAI_AGAIN: 'the host name could not be resolved (ERR_NAME_NOT_RESOLVED)',
};

function describe(error: unknown): string {
  const code = (error as { code?: string }).code;
  return (code && ERROR_WORDS[code]) ?? 'the connection failed';
}

/**
 * A TCP stream to `port` on the first of `hosts` that answers (the checked addresses, or the name when
 * the guard is off), directly or through the session's own proxy (TANDEM_PROXY_URLS: an HTTP(S) CONNECT
 * tunnel or SOCKS). The session's proxy is given the checked address, not the name, so it cannot
 * resolve the name again to somewhere else.
 */
export async function dial(hosts: string[], port: number, upstream: UpstreamProxy | undefined, connect: Connect) {
  let last: unknown;
  for (const host of hosts) {
    try {
      return upstream ? await tunnel(upstream, host, port) : await connect(host, port);
    } catch (error) {
      last = error;
    }
  }
  throw last instanceof DialError ? last : new DialError(describe(last));
}

async function tunnel(upstream: UpstreamProxy, host: string, port: number): Promise<Socket> {
  const proxy = new URL(upstream.server);
  if (proxy.protocol.startsWith('socks')) {
    const { socket } = await SocksClient.createConnection({
      command: 'connect',
      destination: { host, port },
      proxy: {
        host: proxy.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: Number(proxy.port || 1080),
        type: proxy.protocol === 'socks4:' ? 4 : 5,
        ...(upstream.username ? { userId: upstream.username } : {}),
        ...(upstream.password ? { password: upstream.password } : {}),
      },
      timeout: CONNECT_TIMEOUT_MS,
    }).catch((error: unknown) => {
      throw new DialError(`the session's proxy (TANDEM_PROXY_URLS) could not connect to it (${socksWords(error)})`);
    });
    return socket;
  }
  const target = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const headers: Record<string, string> = { host: target };
  if (upstream.username || upstream.password) {
    const credentials = `${upstream.username ?? ''}:${upstream.password ?? ''}`;
    headers['proxy-authorization'] = `Basic ${Buffer.from(credentials).toString('base64')}`;
  }
  const send = proxy.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<Socket>((resolve, reject) => {
    const req = send({
      host: proxy.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: Number(proxy.port || (proxy.protocol === 'https:' ? 443 : 80)),
      method: 'CONNECT',
      path: target,
      headers,
      agent: false,
      timeout: CONNECT_TIMEOUT_MS,
    });
    req.once('connect', (res, socket, head) => {
      if (res.statusCode !== 200) {
        socket.destroy();
        reject(new DialError(`the session's proxy (TANDEM_PROXY_URLS) answered ${res.statusCode} to the tunnel`));
        return;
      }
      if (head.length > 0) socket.unshift(head);
      resolve(socket);
    });
    req.once('timeout', () => req.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })));
    req.once('error', (error) =>
      reject(new DialError(`the session's proxy (TANDEM_PROXY_URLS) could not be reached (${describe(error)})`)),
    );
    req.end();
  });
}

/** The socks library's messages can carry the proxy's address; say only what kind of failure it was. */
function socksWords(error: unknown): string {
  const text = String((error as Error).message ?? error);
  if (/authentication/i.test(text)) return 'authentication failed';
  if (/timed out|timeout/i.test(text)) return 'timed out';
  if (/refused|ECONNREFUSED/i.test(text)) return 'the connection was refused';
  return 'the proxy reported an error';
}
