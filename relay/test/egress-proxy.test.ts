import { createServer, request, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { type ForwardProxy, startForwardProxy } from '@tandem/e2e/fixtures';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AllowList } from '../src/network/allow-list';
import { type Connect, systemConnect } from '../src/network/dial';
import { EgressProxy, type EgressRegistration } from '../src/network/egress-proxy';
import { NetworkGuard, type Resolver } from '../src/network/network-guard';
import { ADDRESS_FORMS, bareHost, PUBLIC_IP } from './address-forms';

const logger = pino({ level: 'silent' });

/** The internal service every refused request is aimed at: a server on 127.0.0.1 that records its hits. */
let intranet: Server;
let port: number;
const hits: string[] = [];

beforeAll(async () => {
  intranet = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'text/plain' }).end('internal');
  });
  await new Promise<void>((resolve) => intranet.listen(0, '127.0.0.1', resolve));
  port = (intranet.address() as AddressInfo).port;
});
afterAll(async () => {
  intranet.closeAllConnections();
  await new Promise<void>((resolve) => intranet.close(() => resolve()));
});

const ROUTED = new Set(ADDRESS_FORMS.filter((f) => f.reach === 'routed').map((f) => bareHost(f.host)));
ROUTED.add(PUBLIC_IP);

interface Harness {
  proxy: EgressProxy;
  session: EgressRegistration;
  /** Hosts the proxy asked the network to connect to, in order. */
  dialed: string[];
}
const harnesses: EgressProxy[] = [];
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((p) => p.close()));
});

/**
 * An egress proxy whose network routes the `routed` forms and PUBLIC_IP to the intranet server (as a
 * cloud, a LAN or a NAT64 gateway would) and connects to everything else for real.
 */
async function harness(options: { guard: boolean; resolve?: Resolver; upstream?: string }): Promise<Harness> {
  const dialed: string[] = [];
  const connect: Connect = (host, to) => {
    dialed.push(host);
    return systemConnect(ROUTED.has(host) ? '127.0.0.1' : host, to);
  };
  const guard = new NetworkGuard({ enabled: options.guard, allow: new AllowList(''), resolve: options.resolve });
  const proxy = await EgressProxy.start({ host: '127.0.0.1', port: 0, guard, connect, logger });
  harnesses.push(proxy);
  const upstream = options.upstream
    ? { server: options.upstream, username: 'customer-1', password: 'secret' }
    : undefined;
  return { proxy, session: proxy.register({ upstream, logger }), dialed };
}

const basic = (session: EgressRegistration, password = session.proxy.password) =>
  `Basic ${Buffer.from(`${session.proxy.username}:${password}`).toString('base64')}`;

/** A plain http:// request through the proxy: the status and body, or 'dropped' when the proxy hung up. */
function get(h: Harness, url: string, auth = basic(h.session)): Promise<{ status: number; body: string } | 'dropped'> {
  const { port: proxyPort } = new URL(h.proxy.url);
  return new Promise((resolve) => {
    const headers = { 'proxy-authorization': auth };
    const req = request({ host: '127.0.0.1', port: proxyPort, path: url, headers, agent: false });
    req.once('response', (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.once('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.once('error', () => resolve('dropped'));
    req.end();
  });
}

/** A CONNECT through the proxy: its status, and when 200 the answer to a GET sent through the tunnel. */
function connectVia(h: Harness, authority: string, path = '/'): Promise<{ status: number; answer?: string }> {
  const { port: proxyPort } = new URL(h.proxy.url);
  return new Promise((resolve, reject) => {
    const req = request({
      host: '127.0.0.1',
      port: proxyPort,
      method: 'CONNECT',
      path: authority,
      headers: { 'proxy-authorization': basic(h.session) },
    });
    req.once('connect', (res, socket: Socket) => {
      if (res.statusCode !== 200) {
        socket.destroy();
        resolve({ status: res.statusCode ?? 0 });
        return;
      }
      let answer = '';
      socket.on('data', (chunk) => (answer += chunk));
      socket.once('close', () => resolve({ status: 200, answer }));
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${authority}\r\nConnection: close\r\n\r\n`);
    });
    req.once('error', reject);
    req.end();
  });
}

describe('egress proxy: every address form', () => {
  it.each(ADDRESS_FORMS)('refuses $name ($host) over plain http, which reaches the server unguarded', async (form) => {
    const url = `http://${form.host}:${port}/secret?form=${encodeURIComponent(form.name)}&via=http`;
    const seen = `GET /secret?form=${encodeURIComponent(form.name)}&via=http`;

    const guarded = await harness({ guard: true });
    expect(await get(guarded, url)).toBe('dropped');
    expect(guarded.dialed).toEqual([]);
    expect(hits).not.toContain(seen);
    expect(guarded.session.failures.find(url, 0)).toMatchObject({
      kind: 'private',
      reason: expect.stringMatching(form.reason),
    });

    // The control: the same request through an unguarded proxy reaches the internal server.
    const open = await harness({ guard: false });
    expect(await get(open, url)).toEqual({ status: 200, body: 'internal' });
    expect(open.dialed).toEqual([bareHost(form.host)]);
    expect(hits).toContain(seen);
  });

  it.each(ADDRESS_FORMS)(
    'refuses $name ($host) as a CONNECT tunnel (https, wss), which opens unguarded',
    async (form) => {
      const authority = `${new URL(`http://${form.host}/`).host}:${port}`;
      const path = `/secret?form=${encodeURIComponent(form.name)}&via=connect`;

      const guarded = await harness({ guard: true });
      expect(await connectVia(guarded, authority, path)).toEqual({ status: 403 });
      expect(guarded.dialed).toEqual([]);
      expect(hits).not.toContain(`GET ${path}`);
      expect(guarded.session.failures.find(`https://${authority}`, 0)?.reason).toMatch(form.reason);

      const open = await harness({ guard: false });
      const tunnel = await connectVia(open, authority, path);
      expect(tunnel.status).toBe(200);
      expect(tunnel.answer).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*internal/);
      expect(hits).toContain(`GET ${path}`);
    },
  );
});

describe('egress proxy: names', () => {
  it('connects to the address it checked, so a rebinding resolver gets nowhere', async () => {
    // public, private, public, private...: what a DNS rebinding attacker's name server answers.
    let answers = 0;
    const resolve: Resolver = async () => [answers++ % 2 === 0 ? PUBLIC_IP : '127.0.0.1'];
    const h = await harness({ guard: true, resolve });
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await get(h, `http://rebind.test:${port}/secret?rebind=${i}`));
    expect(results).toEqual([
      { status: 200, body: 'internal' },
      'dropped',
      { status: 200, body: 'internal' },
      'dropped',
    ]);
    // Both passes went to the public address they were checked as, never to the private one.
    expect(h.dialed).toEqual([PUBLIC_IP, PUBLIC_IP]);
    expect(h.session.failures.find('http://rebind.test/', 0)?.reason).toBe(
      'rebind.test resolves to 127.0.0.1, a loopback address',
    );
  });

  it('refuses a name whose lookup fails, and says so', async () => {
    const h = await harness({
      guard: true,
      resolve: async () => {
        throw new Error('ENOTFOUND');
      },
    });
    expect(await get(h, `http://nowhere.test:${port}/secret`)).toBe('dropped');
    expect(await connectVia(h, `nowhere.test:${port}`)).toEqual({ status: 403 });
    expect(h.dialed).toEqual([]);
    expect(h.session.failures.find('http://nowhere.test/', 0)).toMatchObject({
      kind: 'unresolved',
      reason: 'the host name nowhere.test could not be resolved',
    });
  });

  it('records what the network answered when a checked address does not connect', async () => {
    const h = await harness({ guard: false });
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await get(h, `http://127.0.0.1:${closedPort}/`)).toBe('dropped');
    expect(h.session.failures.find('http://127.0.0.1/', 0)).toMatchObject({
      kind: 'unreachable',
      reason: 'the connection was refused (ERR_CONNECTION_REFUSED)',
    });
  });
});

describe('egress proxy: sessions', () => {
  it('answers 407 without the session credentials, with wrong ones, and after release', async () => {
    const h = await harness({ guard: false });
    const url = `http://127.0.0.1:${port}/secret?auth`;
    expect(await get(h, url, '')).toEqual({ status: 407, body: '' });
    expect(await get(h, url, basic(h.session, 'wrong'))).toEqual({ status: 407, body: '' });
    expect(await get(h, url, basic(h.session))).toEqual({ status: 200, body: 'internal' });
    h.session.release();
    expect(await get(h, url, basic(h.session))).toEqual({ status: 407, body: '' });
  });

  it("keeps each session's failures to itself", async () => {
    const h = await harness({ guard: true });
    const other = h.proxy.register({ logger });
    expect(await get(h, `http://127.0.0.1:${port}/secret`)).toBe('dropped');
    expect(h.session.failures.find('http://127.0.0.1/', 0)).toBeDefined();
    expect(other.failures.find('http://127.0.0.1/', 0)).toBeUndefined();
  });

  it('closes a session’s open tunnels when it is released', async () => {
    const h = await harness({ guard: false });
    const { port: proxyPort } = new URL(h.proxy.url);
    const socket = await new Promise<Socket>((resolve) => {
      const req = request({
        host: '127.0.0.1',
        port: proxyPort,
        method: 'CONNECT',
        path: `127.0.0.1:${port}`,
        headers: { 'proxy-authorization': basic(h.session) },
      });
      req.once('connect', (_res, s: Socket) => resolve(s));
      req.end();
    });
    const closed = new Promise((resolve) => socket.once('close', resolve));
    h.session.release();
    await closed;
  });
});

describe('egress proxy: the session’s own proxy (use_proxy)', () => {
  let upstream: ForwardProxy;
  beforeAll(async () => {
    // public.test and PUBLIC_IP exist only behind this proxy, as a residential gateway's exit would see them.
    upstream = await startForwardProxy({
      password: 'secret',
      hosts: { [PUBLIC_IP]: '127.0.0.1', 'public.test': '127.0.0.1' },
    });
  });
  afterAll(() => upstream?.close());

  it('tunnels through it to the checked address, never the name, with the session credentials', async () => {
    const h = await harness({ guard: true, upstream: upstream.url, resolve: async () => [PUBLIC_IP] });
    expect(await get(h, `http://public.test:${port}/secret?chained`)).toEqual({ status: 200, body: 'internal' });
    expect(await connectVia(h, `public.test:${port}`, '/secret?chained-connect')).toMatchObject({ status: 200 });
    const seen = upstream.seen.filter((r) => r.username === 'customer-1');
    expect(seen.map((r) => `${r.method} ${r.target}`)).toEqual([
      `CONNECT ${PUBLIC_IP}:${port}`,
      `CONNECT ${PUBLIC_IP}:${port}`,
    ]);
    expect(h.dialed).toEqual([]); // the upstream connects, not the relay
  });

  it('refuses private targets before the session’s proxy hears of them', async () => {
    const h = await harness({ guard: true, upstream: upstream.url });
    const before = upstream.seen.length;
    expect(await get(h, `http://[::ffff:127.0.0.1]:${port}/secret`)).toBe('dropped');
    expect(await connectVia(h, `10.0.0.1:${port}`)).toEqual({ status: 403 });
    expect(upstream.seen.length).toBe(before);
  });

  it('passes the name on when the guard is off, for the proxy to resolve', async () => {
    const h = await harness({ guard: false, upstream: upstream.url });
    expect(await get(h, `http://public.test:${port}/secret?by-name`)).toEqual({ status: 200, body: 'internal' });
    expect(upstream.seen.at(-1)).toMatchObject({
      method: 'CONNECT',
      target: `public.test:${port}`,
      username: 'customer-1',
    });
  });

  it('says when the session’s proxy refuses the tunnel, without its address or credentials', async () => {
    const wrong = await harness({ guard: false });
    const session = wrong.proxy.register({
      upstream: { server: upstream.url, username: 'customer-1', password: 'not-the-password' },
      logger,
    });
    const result = await get({ ...wrong, session }, `http://public.test:${port}/`);
    expect(result).toBe('dropped');
    const failure = session.failures.find('http://public.test/', 0);
    expect(failure?.reason).toBe("the session's proxy (TANDEM_PROXY_URLS) answered 407 to the tunnel");
    expect(JSON.stringify(failure)).not.toContain('not-the-password');
    expect(JSON.stringify(failure)).not.toContain(upstream.url);
  });
});
