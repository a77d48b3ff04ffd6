import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { ExtensionGateway, extensionOrigins } from '../src/gateway/gateway';
import { openLocalSession } from '../src/sessions/local';
import { FakeExtension, ORIGIN } from './fake-extension';
import { startTestRelay, type TestRelay } from './support';

let relay: TestRelay;
let server: Server;
let gateway: ExtensionGateway;
let url: string;
let token: string;
let accountId: string;
const fakes: FakeExtension[] = [];

async function connect(hello: Record<string, unknown> = {}, origin?: string): Promise<FakeExtension> {
  const fake = await FakeExtension.connect(url, { token, ...hello }, origin);
  fakes.push(fake);
  return fake;
}

/** The gateway under test: the relay's store and sessions, its own server, short timers. */
const services = () => ({ ...relay.services, gateway });

beforeAll(async () => {
  relay = await startTestRelay();
  gateway = new ExtensionGateway({
    store: relay.services.store,
    logger: pino({ level: 'silent' }),
    graceMs: 400,
    reconnectWaitMs: 300,
  });
  server = createServer((_req, res) => res.end());
  gateway.attach(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const account = await relay.services.store.accounts.first();
  if (!account) throw new Error('no account');
  accountId = account.id;
});

afterEach(async () => {
  for (const fake of fakes.splice(0)) fake.close();
  await relay.services.sessions.closeAll();
  token = (await relay.services.store.devices.issue(accountId, 'test')).token;
});

afterAll(async () => {
  await gateway?.close();
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  await relay?.close();
});

describe('device tokens', () => {
  it('issues a token for email + password, or for an API key, and 401s a wrong password', async () => {
    await relay.services.store.accounts.create('dev@example.com', 'correct horse battery staple');
    const byPassword = await relay.api('POST', '/v1/extension/token', {
      key: null,
      body: { email: 'dev@example.com', password: 'correct horse battery staple', name: 'Laptop' },
    });
    expect(byPassword.status).toBe(201);
    expect(byPassword.body.token).toMatch(/^tdd_/);
    expect(byPassword.body.device_id).toMatch(/^dev_/);

    const byKey = await relay.api('POST', '/v1/extension/token', {});
    expect(byKey.status).toBe(201);

    const wrong = await relay.api('POST', '/v1/extension/token', {
      key: null,
      body: { email: 'dev@example.com', password: 'nope' },
    });
    expect(wrong.status).toBe(401);
    const nothing = await relay.api('POST', '/v1/extension/token', { key: null, body: {} });
    expect(nothing.status).toBe(400);
  });

  it('stores only a hash and revokes a token with DELETE', async () => {
    const issued = await relay.api('POST', '/v1/extension/token', {});
    const issuedToken = issued.body.token as string;
    expect((await relay.services.store.devices.resolve(issuedToken))?.id).toBe(issued.body.device_id);
    const revoked = await relay.api('DELETE', '/v1/extension/token', {
      key: null,
      headers: { Authorization: `Bearer ${issuedToken}` },
    });
    expect(revoked.body).toEqual({ revoked: true });
    expect(await relay.services.store.devices.resolve(issuedToken)).toBeUndefined();
  });
});

describe('gateway handshake', () => {
  beforeAll(async () => {
    token = (await relay.services.store.devices.issue(accountId, 'test')).token;
  });

  it('refuses a socket from another Origin before the upgrade', async () => {
    const ws = new WebSocket(`${url.replace('http', 'ws')}/v1/extension/ws`, { origin: 'https://evil.example' });
    const status = await new Promise<number>((resolve) =>
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)),
    );
    expect(status).toBe(403);
  });

  it('closes with 4001 on a wrong token and 4002 with "update the extension" on an old protocol', async () => {
    const bad = await connect({ token: 'tdd_wrong' });
    expect(await bad.closeInfo).toMatchObject({ code: 4001 });
    const old = await connect({ protocolVersion: 0 });
    const closed = await old.closeInfo;
    expect(closed.code).toBe(4002);
    expect(closed.reason).toMatch(/update the extension to >= /);
  });

  it('welcomes a good hello, marks the device present and answers pings', async () => {
    const fake = await connect();
    const welcome = await fake.welcome;
    expect(welcome).toMatchObject({ type: 'welcome', heartbeatMs: 20_000, sessions: [] });
    expect(gateway.presence.forAccount(accountId)[0]).toMatchObject({ connected: true, apiEnabled: true });
    const pong = new Promise((resolve) =>
      fake.ws.on('message', (d) => JSON.parse(String(d)).type === 'pong' && resolve(true)),
    );
    fake.send({ type: 'ping' });
    expect(await pong).toBe(true);
  });
});

/** A gateway with its own options on its own loopback server; stopped by `stop()`. */
async function startGateway(options: Partial<ConstructorParameters<typeof ExtensionGateway>[0]>) {
  const own = new ExtensionGateway({ store: relay.services.store, logger: pino({ level: 'silent' }), ...options });
  const ownServer = createServer((_req, res) => res.end());
  own.attach(ownServer);
  await new Promise<void>((resolve) => ownServer.listen(0, '127.0.0.1', resolve));
  return {
    gateway: own,
    url: `http://127.0.0.1:${(ownServer.address() as AddressInfo).port}`,
    async stop() {
      await own.close();
      await new Promise<void>((resolve) => ownServer.close(() => resolve()));
    },
  };
}

describe('gateway settings', () => {
  it('closes a socket that sends no hello within the hello timeout with 4004', async () => {
    const quick = await startGateway({ helloTimeoutMs: 100 });
    try {
      const ws = new WebSocket(`${quick.url.replace('http', 'ws')}/v1/extension/ws`, { origin: ORIGIN });
      const closed = await new Promise<{ code: number; reason: string }>((resolve) =>
        ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })),
      );
      expect(closed).toEqual({ code: 4004, reason: 'no hello' });
    } finally {
      await quick.stop();
    }
  });

  it('accepts exactly the Origins listed in TANDEM_EXTENSION_ORIGINS, trailing slashes ignored', async () => {
    const origins = extensionOrigins(
      ' chrome-extension://abcdefghijklmnopabcdefghijklmnop/ , https://console.example ',
    );
    expect(origins).toEqual(['chrome-extension://abcdefghijklmnopabcdefghijklmnop', 'https://console.example']);
    expect(extensionOrigins('')).toEqual([ORIGIN]);
    const rekeyed = await startGateway({ origins });
    try {
      const listed = await FakeExtension.connect(
        rekeyed.url,
        { token },
        'chrome-extension://abcdefghijklmnopabcdefghijklmnop',
      );
      fakes.push(listed);
      expect(await listed.welcome).toMatchObject({ type: 'welcome' });
      const pinned = new WebSocket(`${rekeyed.url.replace('http', 'ws')}/v1/extension/ws`, { origin: ORIGIN });
      const status = await new Promise<number>((resolve) =>
        pinned.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)),
      );
      expect(status).toBe(403);
    } finally {
      await rekeyed.stop();
    }
  });
});

describe('gateway heartbeat', () => {
  it('drops a socket that stops pinging, and marks the device disconnected', async () => {
    const quick = new ExtensionGateway({
      store: relay.services.store,
      logger: pino({ level: 'silent' }),
      heartbeatMs: 100,
    });
    const quickServer = createServer((_req, res) => res.end());
    quick.attach(quickServer);
    await new Promise<void>((resolve) => quickServer.listen(0, '127.0.0.1', resolve));
    try {
      const quickUrl = `http://127.0.0.1:${(quickServer.address() as AddressInfo).port}`;
      const silent = await FakeExtension.connect(quickUrl, { token });
      fakes.push(silent);
      expect(await silent.welcome).toMatchObject({ heartbeatMs: 100 });
      expect((await silent.closeInfo).code).toBe(4006);
      await expect.poll(() => quick.presence.forAccount(accountId)[0]?.connected).toBe(false);
    } finally {
      await quick.close();
      await new Promise<void>((resolve) => quickServer.close(() => resolve()));
    }
  });
});

describe('local sessions over the gateway', () => {
  it('400s saying which: no device connected, or API Enabled off', async () => {
    const fresh = await relay.services.store.accounts.create(
      `fresh${Date.now()}@example.com`,
      'correct horse battery staple',
    );
    await expect(
      openLocalSession(services(), fresh.id, { url: 'http://example.test/', use_proxy: false }),
    ).rejects.toThrow(/none is/);
    const device = await relay.services.store.devices.issue(fresh.id, 'x');
    // Connected with the toggle off: the socket stays open, and no local session is opened on it.
    const off = await FakeExtension.connect(url, { token: device.token, apiEnabled: false });
    fakes.push(off);
    await off.welcome;
    await expect(
      openLocalSession(services(), fresh.id, { url: 'http://example.test/', use_proxy: false }),
    ).rejects.toThrow(/API Enabled/);
  });

  it('runs commands with correlation and ends the session when the user closes its tab', async () => {
    const fake = await connect();
    await fake.welcome;
    const session = await openLocalSession(services(), accountId, { url: 'http://example.test/', use_proxy: false });
    expect(fake.received.map((r) => r.type)).toEqual(['tab.open']);
    expect(fake.received[0]?.params).toMatchObject({ sessionId: session.id, url: 'http://example.test/' });
    expect(await session.driver.title()).toBe('Example');
    expect((await session.driver.screenshot()).toString()).toBe('fake png');

    fake.send({ type: 'tabClosed', sessionId: session.id, tabId: 7 });
    await expect.poll(() => relay.services.sessions.list(accountId)).not.toContain(session.id);
    expect(() => relay.services.sessions.get(accountId, session.id)).toThrow(/closed in the browser/);
  });

  it('rejects a malformed result and fails in-flight commands with a retriable error on disconnect', async () => {
    const fake = await connect();
    await fake.welcome;
    const session = await openLocalSession(services(), accountId, { url: 'http://example.test/', use_proxy: false });
    fake.answer = () => ({ nonsense: true });
    await expect(session.driver.title()).rejects.toThrow(/malformed tab.info/);

    fake.replying = false;
    const inFlight = session.driver.screenshot();
    await expect.poll(() => fake.received.at(-1)?.type).toBe('screenshot');
    fake.close();
    await expect(inFlight).rejects.toMatchObject({
      code: 'extension_unavailable',
      extensionCode: 'disconnected',
      retryAfterSeconds: 2,
    });
  });

  it('keeps the session through a reconnect within the grace period, and ends it after', async () => {
    const first = await connect();
    await first.welcome;
    const session = await openLocalSession(services(), accountId, { url: 'http://example.test/', use_proxy: false });
    first.close();
    const second = await connect({ sessions: [{ sessionId: session.id, tabId: 7 }] });
    expect((await second.welcome).sessions).toEqual([session.id]);
    expect(await session.driver.title()).toBe('Example');
    expect(relay.services.sessions.list(accountId)).toContain(session.id);

    second.close();
    await expect.poll(() => relay.services.sessions.list(accountId), { timeout: 3000 }).not.toContain(session.id);
    expect(() => relay.services.sessions.get(accountId, session.id)).toThrow(/extension stayed disconnected/);
  });

  it('fails a command the extension does not answer in time with a retriable timeout', async () => {
    const fake = await connect();
    const { deviceId } = (await fake.welcome) as { deviceId: string };
    fake.replying = false;
    const started = Date.now();
    await expect(gateway.request(deviceId, 'tab.info', { tabId: 7 }, 150)).rejects.toMatchObject({
      code: 'extension_unavailable',
      extensionCode: 'timeout',
      retryAfterSeconds: 2,
      message: expect.stringMatching(/did not answer tab.info/),
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    // A late answer is dropped, and the socket keeps working.
    fake.replying = true;
    expect(await gateway.request(deviceId, 'tab.info', { tabId: 7 }, 2_000)).toMatchObject({ title: 'Example' });
  });

  it('revoking the device closes its socket with 4001, forgets it and ends its sessions', async () => {
    const fake = await connect();
    const { deviceId } = (await fake.welcome) as { deviceId: string };
    const session = await openLocalSession(services(), accountId, { url: 'http://example.test/', use_proxy: false });
    gateway.revokeDevice(deviceId);
    expect(await fake.closeInfo).toEqual({ code: 4001, reason: 'the device token was revoked: sign in again' });
    expect(gateway.presence.forAccount(accountId).map((d) => d.deviceId)).not.toContain(deviceId);
    await expect.poll(() => relay.services.sessions.list(accountId)).not.toContain(session.id);
    const after = await relay.api('GET', `/v1/web/screenshot/${session.id}`);
    expect(after.status).toBe(404);
    expect(after.body.message).toMatch(/device token was revoked \(sign the extension in again/);
    await expect(gateway.request(deviceId, 'tab.info', { tabId: 7 }, 1_000)).rejects.toMatchObject({
      extensionCode: 'disconnected',
    });
  });

  it('DELETE /v1/extension/token disconnects the live socket of that token', async () => {
    const issued = await relay.services.store.devices.issue(accountId, 'to revoke');
    const fake = await FakeExtension.connect(relay.url, { token: issued.token });
    fakes.push(fake);
    await fake.welcome;
    const revoked = await relay.api('DELETE', '/v1/extension/token', {
      key: null,
      headers: { Authorization: `Bearer ${issued.token}` },
    });
    expect(revoked.body).toEqual({ revoked: true });
    expect((await fake.closeInfo).code).toBe(4001);
    expect(relay.services.gateway.presence.forAccount(accountId).map((d) => d.deviceId)).not.toContain(
      issued.record.id,
    );
  });

  it('keeps the socket while API Enabled is off, refusing commands, and runs them again once it is on', async () => {
    const fake = await connect();
    const { deviceId } = (await fake.welcome) as { deviceId: string };
    const session = await openLocalSession(services(), accountId, { url: 'http://example.test/', use_proxy: false });
    const enabled = () => gateway.presence.forAccount(accountId).find((d) => d.deviceId === deviceId)?.apiEnabled;
    fake.send({ type: 'state', apiEnabled: false });
    await expect.poll(enabled).toBe(false);
    await expect(session.driver.title()).rejects.toMatchObject({ code: 'api_disabled' });
    fake.send({ type: 'state', apiEnabled: true });
    await expect.poll(enabled).toBe(true);
    expect(await session.driver.title()).toBe('Example');
    expect((await Promise.race([fake.closeInfo, Promise.resolve('open')])) as unknown).toBe('open');
  });

  it('fails a step with a clear message when API Enabled is turned off mid-session', async () => {
    const fake = await connect();
    await fake.welcome;
    const session = await openLocalSession(services(), accountId, { url: 'http://example.test/', use_proxy: false });
    fake.send({ type: 'state', apiEnabled: false });
    fake.ws.close(4010, 'api off');
    await fake.closeInfo;
    await expect(session.driver.title()).rejects.toMatchObject({
      code: 'api_disabled',
      message: expect.stringMatching(/API Enabled was turned off/),
    });
  });
});
