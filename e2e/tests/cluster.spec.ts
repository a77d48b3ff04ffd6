// Local mode with two relays on one Redis and one Postgres: the extension holds a socket to one relay, and
// requests that land on the other reach it all the same.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, loadConfig, type Relay, startRelay } from '@tandem/relay';
import { callRelay, expect, RELAY_KEY, type TestRelay, test } from '../fixtures';
import { type PostgresServer, type RedisServer, startPostgres, startRedis } from '../fixtures/index';
import { connectExtension, tabAt } from './local-helpers';

let redis: RedisServer;
let postgres: PostgresServer;
let databaseUrl: string;

test.beforeAll(async () => {
  [redis, postgres] = await Promise.all([startRedis(), startPostgres()]);
  databaseUrl = await postgres.createDatabase();
});
test.afterAll(async () => {
  await Promise.all([redis?.stop(), postgres?.stop()]);
});

/** A relay of the cluster, with the handle the local-mode helpers take. */
async function clusterRelay(node: string): Promise<{ handle: TestRelay; close(): Promise<void> }> {
  const dataDir = await mkdtemp(join(tmpdir(), `tandem-e2e-${node}-`));
  const relay: Relay = await startRelay(
    loadConfig(
      { CHROMIUM_PATH: process.env.CHROMIUM_PATH },
      {
        PORT: 0,
        HOST: '127.0.0.1',
        TANDEM_DATA_DIR: dataDir,
        TANDEM_DATABASE_URL: databaseUrl,
        TANDEM_REDIS_URL: redis.url,
        TANDEM_NODE_ID: node,
        TANDEM_BOOTSTRAP_KEY: RELAY_KEY,
        TANDEM_ADMIN_EMAIL: 'admin@example.com',
        TANDEM_PLANNER: 'builtin',
        LOG_LEVEL: 'silent',
      },
    ),
    { logger: createLogger((process.env.TANDEM_TEST_LOG ?? 'silent') as 'silent') },
  );
  const handle: TestRelay = {
    url: relay.url,
    key: RELAY_KEY,
    email: 'admin@example.com',
    password: '',
    accountId: (await relay.services.store.accounts.first())?.id ?? '',
    relay,
    api: (method, path, body) => callRelay(relay.url, method, path, body),
    restart: () => Promise.reject(new Error('not used here')),
  };
  return {
    handle,
    async close() {
      await relay.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

test('local mode through either relay: the extension is connected to one, the requests land on the other', async ({
  context,
  serviceWorker,
  site,
}) => {
  const a = await clusterRelay('a');
  const b = await clusterRelay('b');
  try {
    await connectExtension(a.handle, serviceWorker);

    const created = await b.handle.api<{ session_id: string; url: string }>('POST', '/v1/web/session', {
      url: `${site.url}/form.html`,
      local: true,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    // It lives where the extension's socket is, and its tab is in the user's browser.
    expect(created.body.session_id).toMatch(/^ses_a_/);
    const tab = await tabAt(context, `${site.url}/form.html`);

    const step = await b.handle.api<{ status: string; message: string }>(
      'POST',
      `/v1/web/session/${created.body.session_id}`,
      { cmd: 'type Ada into the Name field', stream: false },
    );
    expect(step.status, JSON.stringify(step.body)).toBe(200);
    await expect(tab.getByLabel('Name')).toHaveValue('Ada');

    // Browse with local: true lands on b and runs in the same browser.
    const browsed = await b.handle.api<{ status: string; session_id: string }>('POST', '/v1/web/browse', {
      cmd: 'click Send',
      url: `${site.url}/form.html`,
      local: true,
      max_steps: 3,
    });
    expect(browsed.status, JSON.stringify(browsed.body)).toBe(200);
    expect(browsed.body.session_id).toMatch(/^ses_a_/);

    const closed = await b.handle.api('DELETE', `/v1/web/session/${created.body.session_id}`);
    expect(closed.status).toBe(200);
    await expect.poll(() => tab.isClosed()).toBe(true);
  } finally {
    await b.close();
    await a.close();
  }
});
