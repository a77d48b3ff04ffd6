import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, request, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from '../logger';
import { type Connect, DialError, dial, systemConnect, type UpstreamProxy } from './dial';
import { EgressFailures } from './egress-failures';
import type { NetworkGuard } from './network-guard';

export interface EgressProxyOptions {
  /** Interface to listen on (TANDEM_EGRESS_HOST). */
  host: string;
  /** Port to listen on (TANDEM_EGRESS_PORT; 0 picks a free one). */
  port: number;
  /** How the browser reaches the proxy (TANDEM_EGRESS_URL); default: the listening address. */
  url?: string | undefined;
  guard: NetworkGuard;
  /** Opens TCP connections (tests route addresses of their choosing to loopback servers). */
  connect?: Connect | undefined;
  logger: Logger;
}

/** What a session's browser context is given: Playwright's per-context `proxy` option. */
export interface EgressRegistration {
  proxy: { server: string; username: string; password: string };
  /** Why connections of this session were not opened, newest last. */
  failures: EgressFailures;
  /** Forgets the session's credentials and closes its connections. */
  release(): void;
}

interface Client {
  password: Buffer;
  upstream: UpstreamProxy | undefined;
  logger: Logger;
  failures: EgressFailures;
  sockets: Set<Duplex>;
  released: boolean;
  /** Why the session's account may not open a host (its guardrails), or undefined. */
  refuse: ((hostname: string) => string | undefined) | undefined;
}

/** Headers that describe one hop (RFC 9110 §7.6.1), never forwarded. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-authenticate',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

function endToEnd(headers: IncomingHttpHeaders, keep: string[] = []): IncomingHttpHeaders {
  const named = String(headers.connection ?? '')
    .toLowerCase()
    .split(',')
    .map((s) => s.trim());
  const out: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (keep.includes(name) || (!HOP_BY_HOP.has(name) && !named.includes(name))) out[name] = value;
  }
  return out;
}

const bare = (hostname: string) => hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * The relay's in-process forward proxy in front of Chromium: every connection a remote session's
 * browser makes (navigations, redirects, subresources, form posts, WebSockets, service workers) comes
 * here, is checked by the network guard, and goes to the address that was checked, directly or through
 * the session's own proxy. The name is resolved once, here, so DNS rebinding has nothing to race. Each
 * session gets its own credentials, which tell the proxy whose connection it is.
 */
export class EgressProxy {
  private readonly clients = new Map<string, Client>();
  private readonly sockets = new Set<Duplex>();
  private readonly connect: Connect;

  private constructor(
    private readonly server: Server,
    /** The proxy URL browsers are given. */
    readonly url: string,
    private readonly options: EgressProxyOptions,
  ) {
    this.connect = options.connect ?? systemConnect;
  }

  static async start(options: EgressProxyOptions): Promise<EgressProxy> {
    // Pages with large cookies send large headers; Node's 16 KiB default would answer them 431.
    const server = createServer({ maxHeaderSize: 64 * 1024 });
    await new Promise<void>((resolve, reject) => {
      const fail = (error: NodeJS.ErrnoException) =>
        reject(
          new Error(
            `the egress proxy could not listen on ${options.host}:${options.port} (${error.code ?? error.message}); check TANDEM_EGRESS_HOST and TANDEM_EGRESS_PORT`,
          ),
        );
      server.once('error', fail);
      server.listen(options.port, options.host, () => {
        server.off('error', fail);
        resolve();
      });
    });
    const { address, port } = server.address() as AddressInfo;
    const host = address === '0.0.0.0' || address === '::' ? '127.0.0.1' : address;
    const url = options.url ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    const proxy = new EgressProxy(server, url, options);
    server.on('connection', (socket: Socket) => proxy.hold(proxy.sockets, socket));
    server.on('clientError', (_error, socket: Duplex) => socket.destroy());
    server.on('request', (req, res) => void proxy.forward(req, res));
    server.on('connect', (req: IncomingMessage, socket: Duplex, head: Buffer) => void proxy.tunnel(req, socket, head));
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => void proxy.upgrade(req, socket, head));
    return proxy;
  }

  /** Credentials for one session's browser context; `upstream` is the session's own proxy (use_proxy). */
  register(options: {
    upstream?: UpstreamProxy | undefined;
    logger: Logger;
    refuse?: ((hostname: string) => string | undefined) | undefined;
  }): EgressRegistration {
    const username = `s${randomBytes(9).toString('hex')}`;
    const password = randomBytes(18).toString('base64url');
    const client: Client = {
      password: Buffer.from(password),
      upstream: options.upstream,
      logger: options.logger,
      failures: new EgressFailures(),
      sockets: new Set(),
      released: false,
      refuse: options.refuse,
    };
    this.clients.set(username, client);
    return {
      proxy: { server: this.url, username, password },
      failures: client.failures,
      release: () => {
        client.released = true;
        this.clients.delete(username);
        for (const socket of client.sockets) socket.destroy();
      },
    };
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private hold(set: Set<Duplex>, socket: Duplex): void {
    if (set.has(socket)) return; // a kept-alive connection carries many requests
    set.add(socket);
    socket.once('close', () => set.delete(socket));
    socket.on('error', () => socket.destroy());
  }

  private client(req: IncomingMessage): Client | undefined {
    const header = req.headers['proxy-authorization'];
    if (!header?.startsWith('Basic ')) return undefined;
    const decoded = Buffer.from(header.slice(6), 'base64').toString();
    const colon = decoded.indexOf(':');
    const client = colon > 0 ? this.clients.get(decoded.slice(0, colon)) : undefined;
    if (!client) return undefined;
    const given = Buffer.from(decoded.slice(colon + 1));
    return given.length === client.password.length && timingSafeEqual(given, client.password) ? client : undefined;
  }

  /** A connection to the host, or undefined (the failure is recorded for the session's driver). */
  private async open(client: Client, hostname: string, port: number): Promise<Socket | undefined> {
    const refusal = client.refuse?.(hostname);
    if (refusal) {
      client.failures.record({ hostname, port, kind: 'guardrail', reason: refusal });
      client.logger.info({ host: `${hostname}:${port}`, reason: refusal }, 'connection refused');
      return undefined;
    }
    const verdict = await this.options.guard.inspect(hostname);
    if (!verdict.ok) {
      client.failures.record({ hostname, port, kind: verdict.kind, reason: verdict.reason });
      client.logger.info({ host: `${hostname}:${port}`, reason: verdict.reason }, 'connection refused');
      return undefined;
    }
    let socket: Socket;
    try {
      socket = await dial(verdict.addresses ?? [bare(hostname)], port, client.upstream, this.connect);
    } catch (error) {
      const reason = error instanceof DialError ? error.reason : 'the connection failed';
      client.failures.record({ hostname, port, kind: 'unreachable', reason });
      client.logger.debug({ host: `${hostname}:${port}`, reason }, 'connection failed');
      return undefined;
    }
    if (client.released) {
      socket.destroy();
      return undefined;
    }
    this.hold(client.sockets, socket);
    return socket;
  }

  /** CONNECT host:port — https, wss, and ws (Chromium tunnels WebSockets through a proxy). */
  private async tunnel(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const client = this.client(req);
    if (!client) {
      socket.end(
        'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="tandem"\r\nContent-Length: 0\r\n\r\n',
      );
      return;
    }
    this.hold(client.sockets, socket);
    const target = parseAuthority(req.url ?? '');
    if (!target) {
      socket.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const upstream = await this.open(client, target.hostname, target.port);
    if (!upstream) {
      // Chromium reports a failed tunnel (ERR_TUNNEL_CONNECTION_FAILED); the driver reads why from the failures.
      socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) upstream.write(head);
    splice(socket, upstream);
  }

  /** An absolute-form http:// request: sent to the checked address over a fresh connection. */
  private async forward(req: IncomingMessage, res: import('node:http').ServerResponse): Promise<void> {
    const client = this.client(req);
    if (!client) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="tandem"', 'content-length': '0' }).end();
      return;
    }
    this.hold(client.sockets, req.socket);
    const target = parseAbsolute(req.url ?? '');
    if (!target) {
      res.writeHead(400, { 'content-length': '0' }).end();
      return;
    }
    const upstream = await this.open(client, target.hostname, Number(target.port || 80));
    if (!upstream) {
      // An answer here would be shown as the site's page; a dropped connection is a failed load.
      req.socket.destroy();
      return;
    }
    const outgoing = request({
      createConnection: () => upstream,
      method: req.method,
      path: `${target.pathname}${target.search}`,
      headers: { ...endToEnd(req.headers), host: req.headers.host ?? target.host },
    });
    outgoing.once('response', (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer.headers));
      answer.pipe(res);
      answer.once('error', () => req.socket.destroy());
    });
    outgoing.once('error', () => req.socket.destroy());
    res.once('close', () => outgoing.destroy());
    req.pipe(outgoing);
  }

  /** An absolute-form request with `Upgrade` (a plain ws:// through the proxy): the handshake, then bytes. */
  private async upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const client = this.client(req);
    const target = parseAbsolute(req.url ?? '');
    if (!client || !target) {
      socket.destroy();
      return;
    }
    this.hold(client.sockets, socket);
    const upstream = await this.open(client, target.hostname, Number(target.port || 80));
    if (!upstream) {
      socket.destroy();
      return;
    }
    const headers = endToEnd(req.headers, ['connection', 'upgrade']);
    const lines = [`${req.method} ${target.pathname}${target.search} HTTP/1.1`];
    for (const [name, value] of Object.entries(headers)) {
      for (const one of Array.isArray(value) ? value : [value]) lines.push(`${name}: ${one}`);
    }
    upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
    if (head.length > 0) upstream.write(head);
    splice(socket, upstream);
  }
}

function splice(a: Duplex, b: Duplex): void {
  a.pipe(b);
  b.pipe(a);
  a.once('close', () => b.destroy());
  b.once('close', () => a.destroy());
  a.on('error', () => a.destroy());
  b.on('error', () => b.destroy());
}

function parseAbsolute(raw: string): URL | undefined {
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** `host:port` of a CONNECT, with the host as the URL parser writes it (IPv6 bracketed, IPv4 canonical). */
function parseAuthority(raw: string): { hostname: string; port: number } | undefined {
  try {
    const url = new URL(`http://${raw}`);
    const port = Number(url.port || 80);
    return url.hostname && `${url.username}${url.password}${url.pathname}${url.search}` === '/'
      ? { hostname: url.hostname, port }
      : undefined;
  } catch {
    return undefined;
  }
}
