// Two relays on one Redis and one Postgres, on loopback: what a client sees is one service, whichever relay
// its request lands on. Each relay is started in-process, except the one the last test kills.
import { fileURLToPath } from 'node:url';
import { CLOSE_CODES, type ConsoleSessionsResponse, type DevicesResponse, type TimelineChunk } from '@tandem/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readStream } from './agent-support';
import { type ClusterBed, startClusterBed } from './cluster-support';
import { FakeExtension } from './fake-extension';
import { cleanEnv, spawnRelay } from './relay-process';
import { TEST_KEY, type TestRelay } from './support';

let bed: ClusterBed;
beforeAll(async () => {
  bed = await startClusterBed();
}, 120_000);
afterAll(() => bed?.close());

const node = (id: string, settings?: Record<string, unknown>) => bed.node(id, settings);

/** An extension signed in to `relay` with a device token, API Enabled, its socket open. */
async function device(relay: TestRelay): Promise<{ id: string; fake: FakeExtension }> {
  const issued = await relay.api('POST', '/v1/extension/token', { body: { name: 'laptop' } });
  const fake = await FakeExtension.connect(relay.url, { token: issued.body.token, sessions: [] });
  await fake.welcome;
  return { id: issued.body.device_id as string, fake };
}

describe('two relays', () => {
  let a: TestRelay;
  let b: TestRelay;
  beforeAll(async () => {
    a = await node('a');
    b = await node('b');
  }, 120_000);

  it('refuse a third relay with a node id that is taken, saying so', async () => {
    await expect(node('a')).rejects.toThrow(/TANDEM_NODE_ID=a is already used by a running relay/);
  });

  it('a session made on one is stepped, streamed, screenshotted, listed and closed through the other', async () => {
    const created = await a.api('POST', '/v1/web/session', { body: { url: `${bed.site.url}/form.html` } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.session_id as string;
    expect(id).toMatch(/^ses_a_/);

    const step = await b.api('POST', `/v1/web/session/${id}`, { body: { cmd: 'scroll down', stream: false } });
    expect(step.status, JSON.stringify(step.body)).toBe(200);
    expect(step.body).toMatchObject({ session_id: id, url: `${bed.site.url}/form.html` });

    const stream = await fetch(`${b.url}/v1/web/session/${id}`, {
      method: 'POST',
      headers: { X_SERVICE_API_KEY: TEST_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ cmd: 'scroll up', stream: true }),
    });
    expect(stream.headers.get('content-type')).toMatch(/text\/event-stream/);
    const chunks = await readStream(stream);
    expect(chunks.at(-1)).toBe('[DONE]');
    expect(JSON.parse(chunks.at(-2) ?? '{}')).toMatchObject({ type: 'final_event' });

    const shot = await b.api('GET', `/v1/web/screenshot/${id}`);
    expect(shot.status).toBe(200);
    expect((await fetch(shot.body.screenshot as string)).headers.get('content-type')).toBe('image/png');

    // Both relays list it; the console of either shows it live, with its steps.
    expect((await b.api('GET', '/v1/web/sessions')).body.session_ids).toContain(id);
    const listed = await b.api<ConsoleSessionsResponse>('GET', '/v1/console/sessions');
    expect(listed.body.sessions.find((s) => s.session_id === id)).toMatchObject({ state: 'idle', steps: 2 });
    // Its live timeline, asked of the other relay, is streamed from the one that holds it.
    const timeline = await fetch(`${b.url}/v1/console/sessions/${id}/steps/live`, {
      headers: { X_SERVICE_API_KEY: TEST_KEY },
    });
    const chunksSeen: TimelineChunk[] = [];
    const ending = readStream(timeline, (data) => {
      if (data !== '[DONE]') chunksSeen.push(JSON.parse(data));
    });
    await expect.poll(() => chunksSeen.length, { timeout: 10_000 }).toBe(2);

    const closed = await b.api('DELETE', `/v1/web/session/${id}`);
    expect(closed.body).toEqual({ status: 'closed', session_id: id });
    await ending;
    expect(chunksSeen.at(-1)).toEqual({ type: 'end', reason: 'closed' });
    const after = await a.api('POST', `/v1/web/session/${id}`, { body: { cmd: 'x', stream: false } });
    expect(after.status).toBe(404);
    expect(after.body.message).toMatch(/was closed/);
  });

  it('a session parked on one comes back on the other, where the request landed', async () => {
    const parking = await node('p', { TANDEM_PARK_AFTER_SECONDS: 0.3 });
    const created = await parking.api('POST', '/v1/web/session', {
      body: { url: `${bed.site.url}/account?signin=ada` },
    });
    const id = created.body.session_id as string;
    // Parked and handed to the store: no relay holds it now.
    const owner = await accountOf(parking);
    await expect.poll(() => parking.services.sessions.isAway(owner, id), { timeout: 10_000 }).toBe(true);
    const step = await b.api('POST', `/v1/web/session/${id}`, { body: { cmd: 'Who is signed in?', stream: false } });
    expect(step.status, JSON.stringify(step.body)).toBe(200);
    expect(step.body.url).toBe(`${bed.site.url}/account`);
    // It is b's now: the relay that parked it let go of it, and requests there are passed on to b.
    const account = (await b.services.store.apiKeys.resolve(TEST_KEY))!.accountId;
    expect(b.services.sessions.get(account, id).parked).toBe(false);
    await expect.poll(() => parking.services.sessions.parkedCount, { timeout: 10_000 }).toBe(0);
    expect((await parking.api('GET', `/v1/web/screenshot/${id}`)).status).toBe(200);
    await b.api('DELETE', `/v1/web/session/${id}`);
  });

  it('count one rate limit across relays', async () => {
    const limited = [
      await node('r1', { TANDEM_RATE_LIMIT_PER_MINUTE: 4 }),
      await node('r2', { TANDEM_RATE_LIMIT_PER_MINUTE: 4 }),
    ];
    const key = (await limited[0]!.api<{ key: string }>('POST', '/v1/console/api-keys', { body: { name: 'burst' } }))
      .body.key;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await limited[i % 2]!.api('GET', '/v1/web/sessions', { key })).status);
    }
    expect(statuses.slice(0, 4)).toEqual([200, 200, 200, 200]);
    expect(statuses.slice(4)).toEqual([429, 429]);
  });

  it('see an extension connected to the other relay, and revoking it there closes its socket', async () => {
    const laptop = await device(a);
    const listed = await b.api<DevicesResponse>('GET', '/v1/console/devices');
    expect(listed.body.devices.find((d) => d.id === laptop.id)).toMatchObject({ connected: true, api_enabled: true });
    const revoked = await b.api('DELETE', `/v1/console/devices/${laptop.id}`);
    expect(revoked.body).toEqual({ id: laptop.id, removed: true });
    expect((await laptop.fake.closeInfo).code).toBe(CLOSE_CODES.badToken);
  });
});

describe('a relay that dies', () => {
  it('loses only its live sessions: parked ones come back on the survivor, live ones say their relay stopped', async () => {
    const survivor = await node('s');
    const dataDir = bed.dataDir('node-k');
    const doomed = spawnRelay(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(new URL('../src/main.ts', import.meta.url))],
      {
        cwd: fileURLToPath(new URL('../..', import.meta.url)),
        env: cleanEnv({
          PORT: '0',
          TANDEM_DATA_DIR: dataDir,
          TANDEM_DATABASE_URL: bed.databaseUrl,
          TANDEM_REDIS_URL: bed.redis.url,
          TANDEM_NODE_ID: 'k',
          TANDEM_BOOTSTRAP_KEY: TEST_KEY,
          TANDEM_PLANNER: 'builtin',
          TANDEM_PARK_AFTER_SECONDS: '600',
          ...(process.env.CHROMIUM_PATH ? { CHROMIUM_PATH: process.env.CHROMIUM_PATH } : {}),
        }),
      },
    );
    try {
      // Not a first start (the database has the account): the banner is one line with the URLs.
      const started = () => /Tandem is running: console (\S+)\/console/.exec(doomed.output())?.[1];
      await expect
        .poll(started, { timeout: 60_000 })
        .toBeDefined()
        .catch((error: unknown) => {
          throw new Error(`the relay did not start: ${String(error)}\n${doomed.output()}`);
        });
      const url = started() as string;
      const call = (method: string, path: string, body?: unknown) =>
        fetch(`${url}${path}`, {
          method,
          headers: { X_SERVICE_API_KEY: TEST_KEY, 'content-type': 'application/json' },
          ...(body ? { body: JSON.stringify(body) } : {}),
        }).then(async (res) => ({ status: res.status, body: (await res.json()) as Record<string, unknown> }));
      const live = (await call('POST', '/v1/web/session', { url: `${bed.site.url}/form.html` })).body
        .session_id as string;
      const parked = (
        await call('POST', '/v1/web/retrieve', {
          url: `${bed.site.url}/account?signin=ada`,
          cmd: 'the page',
          mode: 'ludicrous',
        })
      ).body.session_id as string;
      // A retrieve's session parks as the call returns: into the shared store.
      await expect
        .poll(
          async () => (await survivor.services.store.sessionRecords.get(await accountOf(survivor), parked))?.parked,
          { timeout: 10_000 },
        )
        .toBe(true);

      doomed.child.kill('SIGKILL');
      await new Promise((resolve) => doomed.child.once('exit', resolve));

      const back = await survivor.api('POST', `/v1/web/session/${parked}`, {
        body: { cmd: 'Who is signed in?', stream: false },
      });
      expect(back.status, JSON.stringify(back.body)).toBe(200);
      expect(back.body.url).toBe(`${bed.site.url}/account`);
      const gone = await survivor.api('POST', `/v1/web/session/${live}`, {
        body: { cmd: 'scroll down', stream: false },
      });
      expect(gone.status, JSON.stringify(gone.body)).toBe(404);
      expect(gone.body.message).toMatch(/ended because the relay node that held it stopped/);
      const listed = (await survivor.api('GET', '/v1/web/sessions')).body.session_ids as string[];
      expect(listed).toContain(parked);
      expect(listed).not.toContain(live);
      // New work goes on.
      expect((await survivor.api('POST', '/v1/web/session', { body: { url: `${bed.site.url}/` } })).status).toBe(200);
    } finally {
      await doomed.stop();
    }
  }, 120_000);
});

async function accountOf(relay: TestRelay): Promise<string> {
  return (await relay.services.store.apiKeys.resolve(TEST_KEY))!.accountId;
}
