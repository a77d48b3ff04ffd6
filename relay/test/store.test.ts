import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { POSTGRES_MISSING, type PostgresServer, postgresAvailable, startPostgres } from '@tandem/e2e/fixtures';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap } from '../src/store/bootstrap';
import type { StoreLocation } from '../src/store/database';
import { MIGRATIONS } from '../src/store/migrations';
import { hashPassword, sha256 } from '../src/store/secrets';
import { Store } from '../src/store/store';
import { LEGACY_SQLITE_MIGRATIONS } from './legacy-store';
import { closedPort, startTestRelay } from './support';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-store-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Every row of a table, read past the store (straight from the file or the server). */
async function rawRows(location: StoreLocation, table: string): Promise<Record<string, unknown>[]> {
  if (location.databaseUrl) {
    const client = new pg.Client({ connectionString: location.databaseUrl });
    await client.connect();
    try {
      return (await client.query(`SELECT * FROM ${table}`)).rows;
    } finally {
      await client.end();
    }
  }
  const raw = new Database(join(location.dataDir, 'tandem.db'), { readonly: true });
  try {
    return raw.prepare(`SELECT * FROM ${table}`).all() as Record<string, unknown>[];
  } finally {
    raw.close();
  }
}

// Postgres runs wherever it is installed. In CI it must be (.ci/run installs it): a missing server fails
// there rather than skipping; on a developer's machine without it, the suite says why it did not run.
const postgresHere = postgresAvailable();
if (!postgresHere && !process.env.CI) process.stderr.write(`store tests on Postgres not run: ${POSTGRES_MISSING}\n`);
const backends = postgresHere || process.env.CI ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);

describe.each(backends)('the store on %s', (backend) => {
  let postgres: PostgresServer | undefined;
  beforeAll(async () => {
    if (backend === 'postgres') postgres = await startPostgres();
  });
  afterAll(() => postgres?.stop());

  /** A new, empty place for a store: a temp data dir, and on Postgres a new database. */
  const newLocation = async (): Promise<StoreLocation> => ({
    dataDir: tempDir(),
    databaseUrl: postgres ? await postgres.createDatabase() : undefined,
  });

  describe('first start', () => {
    it('creates an account and a working API key once, and never again', async () => {
      const location = await newLocation();
      const relay = await startTestRelay({
        TANDEM_DATA_DIR: location.dataDir,
        TANDEM_DATABASE_URL: location.databaseUrl,
        TANDEM_BOOTSTRAP_KEY: undefined,
        TANDEM_ADMIN_EMAIL: 'me@example.com',
      });
      const first = relay.firstStart;
      await relay.services.sessions.closeAll();
      expect(relay.services.store.backend).toBe(backend);
      expect(first?.email).toBe('me@example.com');
      expect(first?.apiKey).toMatch(/^tdm_[0-9A-Za-z]{30,}$/);
      expect(first?.password.length).toBeGreaterThanOrEqual(16);
      expect((await relay.api('GET', '/v1/web/sessions', { key: first!.apiKey })).status).toBe(200);
      expect(await relay.services.store.accounts.authenticate('me@example.com', first!.password)).toBeDefined();
      expect(await relay.services.store.accounts.authenticate('me@example.com', 'wrong')).toBeUndefined();
      await relay.close().catch(() => undefined);

      const store = await Store.open(location);
      try {
        expect(await bootstrap(store, { adminEmail: 'me@example.com' })).toBeUndefined();
        expect(await store.accounts.count()).toBe(1);
      } finally {
        await store.close();
      }
    });

    it('makes sure TANDEM_BOOTSTRAP_KEY exists, without duplicating it on restart', async () => {
      const location = await newLocation();
      const key = 'tdm_bootstrap_0123456789abcdefghijkl';
      for (let i = 0; i < 2; i++) {
        const store = await Store.open(location);
        await bootstrap(store, { adminEmail: 'admin@localhost', bootstrapKey: key });
        expect(await store.apiKeys.resolve(key)).toBeDefined();
        expect(await store.apiKeys.list((await store.accounts.first())!.id)).toHaveLength(2);
        await store.close();
      }
    });

    it('brings a revoked bootstrap key back', async () => {
      const store = await Store.open(await newLocation());
      try {
        const key = 'tdm_bootstrap_0123456789abcdefghijkl';
        await bootstrap(store, { adminEmail: 'admin@localhost', bootstrapKey: key });
        const record = (await store.apiKeys.resolve(key))!;
        expect(await store.apiKeys.revoke(record.accountId, record.id)).toBe(true);
        expect(await store.apiKeys.resolve(key)).toBeUndefined();
        await bootstrap(store, { adminEmail: 'admin@localhost', bootstrapKey: key });
        expect((await store.apiKeys.resolve(key))?.id).toBe(record.id);
      } finally {
        await store.close();
      }
    });
  });

  describe('API keys', () => {
    it('are stored only as a SHA-256 hash and a short visible prefix, with their last use', async () => {
      const location = await newLocation();
      const store = await Store.open(location);
      const account = await store.accounts.create('a@example.com', 'pw');
      const { key, record } = await store.apiKeys.create(account.id, 'ci');
      expect(record.prefix).toBe(key.slice(0, 12));
      expect(record.lastUsedAt).toBeNull();
      expect((await store.apiKeys.resolve(key))?.lastUsedAt).toBeGreaterThan(0);
      await store.close();

      const rows = await rawRows(location, 'api_keys');
      expect(JSON.stringify(rows)).not.toContain(key);
      expect(rows[0]).toMatchObject({ prefix: key.slice(0, 12), hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
      expect(Number(rows[0]!.last_used_at)).toBeGreaterThan(0);
    });

    it('stop resolving once revoked, and only their own account can revoke them', async () => {
      const store = await Store.open(await newLocation());
      try {
        const alice = await store.accounts.create('alice@example.com', 'pw');
        const bob = await store.accounts.create('bob@example.com', 'pw');
        const { key, record } = await store.apiKeys.create(alice.id, 'laptop');
        await store.apiKeys.create(alice.id, 'ci');
        expect(await store.apiKeys.revoke(bob.id, record.id)).toBe(false);
        expect((await store.apiKeys.resolve(key))?.accountId).toBe(alice.id);
        expect(await store.apiKeys.revoke(alice.id, record.id)).toBe(true);
        expect(await store.apiKeys.revoke(alice.id, record.id)).toBe(false);
        expect(await store.apiKeys.resolve(key)).toBeUndefined();
        expect((await store.apiKeys.list(alice.id)).map((k) => k.name)).toEqual(['ci']);
        expect(await store.apiKeys.list(bob.id)).toEqual([]);
        expect(await store.apiKeys.resolve('tdm_not_a_key')).toBeUndefined();
      } finally {
        await store.close();
      }
    });
  });

  describe('accounts', () => {
    it('treat emails case-insensitively: sign-in with any case, one account per address', async () => {
      const store = await Store.open(await newLocation());
      try {
        const account = await store.accounts.create(' Ada@Example.COM ', 'secret');
        expect(account.email).toBe('ada@example.com');
        expect((await store.accounts.authenticate('ADA@example.com', 'secret'))?.id).toBe(account.id);
        expect(await store.accounts.authenticate('ada@example.com', 'Secret')).toBeUndefined();
        expect(await store.accounts.authenticate('nobody@example.com', 'secret')).toBeUndefined();
        await expect(store.accounts.create('ada@EXAMPLE.com', 'other')).rejects.toThrow();
        expect(await store.accounts.count()).toBe(1);
        expect(await store.accounts.get(account.id)).toEqual(account);
        expect(await store.accounts.get('acc_missing')).toBeUndefined();
      } finally {
        await store.close();
      }
    });
  });

  describe('skills, agents, devices and usage', () => {
    it('lists skills in the order they were added, matching by host, per account', async () => {
      const store = await Store.open(await newLocation());
      try {
        const account = await store.accounts.create('a@example.com', 'pw');
        const other = await store.accounts.create('b@example.com', 'pw');
        // Added in one burst: most share a millisecond, and the order must still hold.
        const rules = Array.from({ length: 12 }, (_, i) => `rule ${i}`);
        for (const rule of rules) await store.skills.add(account.id, 'shop.example', rule);
        const everywhere = await store.skills.add(account.id, '*', 'be polite');
        await store.skills.add(other.id, '*', 'not yours');
        expect(await store.skills.matching(account.id, 'https://www.shop.example/cart')).toEqual([
          ...rules,
          'be polite',
        ]);
        expect(await store.skills.matching(account.id, 'https://elsewhere.example/')).toEqual(['be polite']);
        expect(await store.skills.matching(account.id, 'not a url')).toEqual([]);
        expect(await store.skills.remove(other.id, everywhere.id)).toBe(false);
        expect(await store.skills.remove(account.id, everywhere.id)).toBe(true);
        expect(await store.skills.list(account.id)).toHaveLength(12);
      } finally {
        await store.close();
      }
    });

    it('keeps secrets per account: names and patterns listed, values only resolved, replaced by name', async () => {
      const store = await Store.open(await newLocation());
      try {
        const account = await store.accounts.create('a@example.com', 'pw');
        const other = await store.accounts.create('b@example.com', 'pw');
        await store.secrets.set(account.id, 'shop-password', 'first-value', 'shop.example');
        await store.secrets.set(account.id, 'shop-password', 'second-value', ' *.shop.example ');
        await store.secrets.set(account.id, 'api-token', 'token-value');
        await store.secrets.set(other.id, 'shop-password', 'not yours');
        const listed = await store.secrets.list(account.id);
        expect(listed.map((s) => [s.name, s.hostPattern])).toEqual([
          ['api-token', null],
          ['shop-password', '*.shop.example'],
        ]);
        expect(JSON.stringify(listed)).not.toContain('value');
        const resolved = await store.secrets.resolve(account.id, ['shop-password', 'api-token', 'missing']);
        expect(Object.fromEntries(resolved)).toEqual({
          'shop-password': { value: 'second-value', hostPattern: '*.shop.example' },
          'api-token': { value: 'token-value', hostPattern: null },
        });
        expect(await store.secrets.remove(other.id, 'api-token')).toBe(false);
        expect(await store.secrets.remove(account.id, 'api-token')).toBe(true);
        expect((await store.secrets.resolve(account.id, ['api-token'])).size).toBe(0);
        expect((await store.secrets.resolve(other.id, ['shop-password'])).get('shop-password')?.value).toBe(
          'not yours',
        );
      } finally {
        await store.close();
      }
    });

    it('finds an agent profile only for its own account', async () => {
      const store = await Store.open(await newLocation());
      try {
        const account = await store.accounts.create('a@example.com', 'pw');
        const other = await store.accounts.create('b@example.com', 'pw');
        const profile = await store.agents.create(account.id, {
          name: 'careful',
          instructions: 'Ask first.',
          defaultMode: 'standard',
        });
        const plain = await store.agents.create(account.id, { name: 'plain', instructions: '' });
        const tuned = await store.agents.create(account.id, {
          name: 'tuned',
          instructions: '',
          temperature: 0.25,
          maxSteps: 7,
          skillIds: ['skl_a', 'skl_b'],
        });
        expect(await store.agents.get(account.id, tuned.id)).toMatchObject({
          temperature: 0.25,
          maxSteps: 7,
          skillIds: ['skl_a', 'skl_b'],
        });
        expect(plain).toMatchObject({ temperature: null, maxSteps: null, skillIds: null });
        expect(await store.agents.get(account.id, profile.id)).toEqual(profile);
        expect(await store.agents.get(other.id, profile.id)).toBeUndefined();
        expect(plain.defaultMode).toBeNull();
        expect(await store.agents.list(account.id)).toEqual([profile, plain, tuned]);
      } finally {
        await store.close();
      }
    });

    it('resolves a device token until it is revoked', async () => {
      const store = await Store.open(await newLocation());
      try {
        const account = await store.accounts.create('a@example.com', 'pw');
        const { token, record } = await store.devices.issue(account.id, 'Laptop');
        expect(token).toMatch(/^tdd_/);
        const seen = await store.devices.resolve(token);
        expect(seen).toMatchObject({ id: record.id, accountId: account.id, name: 'Laptop' });
        expect(seen?.lastSeenAt).toBeGreaterThan(0);
        expect(await store.devices.list(account.id)).toHaveLength(1);
        expect(await store.devices.revoke(account.id, record.id)).toBe(true);
        expect(await store.devices.resolve(token)).toBeUndefined();
        expect(await store.devices.list(account.id)).toEqual([]);
      } finally {
        await store.close();
      }
    });

    it('adds up usage from concurrent steps, per UTC day, as plain numbers', async () => {
      const store = await Store.open(await newLocation());
      try {
        const account = await store.accounts.create('a@example.com', 'pw');
        const noon = new Date('2026-03-01T12:00:00Z');
        const delta = { steps: 1, promptTokens: 1000, completionTokens: 50, cachedTokens: 800 };
        await Promise.all(Array.from({ length: 25 }, () => store.usage.record(account.id, delta, noon)));
        await store.usage.record(account.id, delta, new Date('2026-03-02T00:00:01Z'));
        expect(await store.usage.day(account.id, '2026-03-01')).toEqual({
          steps: 25,
          promptTokens: 25_000,
          completionTokens: 1250,
          cachedTokens: 20_000,
          retrieveCalls: 0,
        });
        expect((await store.usage.day(account.id, '2026-03-02')).steps).toBe(1);
        expect(await store.usage.day(account.id, '2026-02-28')).toEqual({
          steps: 0,
          promptTokens: 0,
          completionTokens: 0,
          cachedTokens: 0,
          retrieveCalls: 0,
        });
        // bigint columns come back as numbers on Postgres too (not strings), and timestamps with them.
        expect(typeof (await store.accounts.count())).toBe('number');
        expect(typeof (await store.accounts.get(account.id))?.createdAt).toBe('number');
        // The month's steps for the quota: from a day on, as a number.
        expect(await store.usage.stepsSince(account.id, '2026-03-01')).toBe(26);
        expect(await store.usage.stepsSince(account.id, '2026-03-02')).toBe(1);
        expect(await store.usage.stepsSince(account.id, '2026-04-01')).toBe(0);
      } finally {
        await store.close();
      }
    });

    it("keeps each session's steps for its own account, oldest first, until pruned", async () => {
      const store = await Store.open(await newLocation());
      try {
        const account = await store.accounts.create('h@example.com', 'pw');
        const other = await store.accounts.create('i@example.com', 'pw');
        const entry = (step: number, at: string) => ({
          step,
          at,
          duration_ms: 5,
          cmd: 'task',
          goal: '',
          actions: [{ action: 'click', index: 3, code: 'ok', message: 'Clicked [3].' }],
          url: 'http://example.test/',
          status: 'CONTINUE' as const,
          message: 'Clicked [3].',
          prompt_tokens: 10,
          completion_tokens: 2,
        });
        await store.history.append(account.id, 'ses_a', entry(2, '2026-03-01T00:00:02.000Z'));
        await store.history.append(account.id, 'ses_a', entry(1, '2026-03-01T00:00:01.000Z'));
        await store.history.append(account.id, 'ses_a', { ...entry(2, '2026-03-01T00:00:02.000Z'), message: 'again' });
        expect((await store.history.forSession(account.id, 'ses_a')).map((e) => [e.step, e.message])).toEqual([
          [1, 'Clicked [3].'],
          [2, 'again'],
        ]);
        expect(await store.history.forSession(other.id, 'ses_a')).toEqual([]);
        expect(await store.history.prune(Date.parse('2026-03-01T00:00:02.000Z'))).toBe(1);
        expect((await store.history.forSession(account.id, 'ses_a')).map((e) => e.step)).toEqual([2]);
      } finally {
        await store.close();
      }
    });

    it("keeps an account's guardrails; none until set", async () => {
      const store = await Store.open(await newLocation());
      try {
        const account = await store.accounts.create('g@example.com', 'pw');
        expect(await store.guardrails.get(account.id)).toEqual({ blockedHosts: [], allowedHosts: [] });
        await store.guardrails.set(account.id, { blockedHosts: ['ads.example'], allowedHosts: [] });
        await store.guardrails.set(account.id, { blockedHosts: ['ads.example'], allowedHosts: ['*.example.com'] });
        expect(await store.guardrails.get(account.id)).toEqual({
          blockedHosts: ['ads.example'],
          allowedHosts: ['*.example.com'],
        });
      } finally {
        await store.close();
      }
    });

    it("keeps an account's monthly step quota, replaced when set again; no row is no quota", async () => {
      const store = await Store.open(await newLocation());
      try {
        const account = await store.accounts.create('q@example.com', 'pw');
        expect(await store.quotas.monthlySteps(account.id)).toBeNull();
        await store.quotas.setMonthlySteps(account.id, 5000);
        await store.quotas.setMonthlySteps(account.id, 1200);
        expect(await store.quotas.monthlySteps(account.id)).toBe(1200);
        await store.quotas.setMonthlySteps(account.id, null);
        expect(await store.quotas.monthlySteps(account.id)).toBeNull();
      } finally {
        await store.close();
      }
    });
  });

  describe('transactions', () => {
    it('commit all of their work or none of it', async () => {
      const store = await Store.open(await newLocation());
      try {
        await expect(
          store.transaction(async (tx) => {
            const account = await tx.accounts.create('gone@example.com', 'pw');
            await tx.apiKeys.create(account.id, 'gone');
            throw new Error('changed my mind');
          }),
        ).rejects.toThrow('changed my mind');
        expect(await store.accounts.count()).toBe(0);
        const id = await store.transaction(async (tx) => (await tx.accounts.create('kept@example.com', 'pw')).id);
        expect((await store.accounts.get(id))?.email).toBe('kept@example.com');
      } finally {
        await store.close();
      }
    });
  });

  describe('migrations', () => {
    it('are recorded by name, and a second open applies none', async () => {
      const location = await newLocation();
      await (await Store.open(location)).close();
      await (await Store.open(location)).close();
      const rows = await rawRows(location, 'schema_migrations');
      expect(rows.map((r) => r.name)).toEqual(MIGRATIONS.map((m) => m.name));
    });

    it('refuse a database a newer Tandem migrated, and change nothing in it', async () => {
      const location = await newLocation();
      const store = await Store.open(location);
      await store.accounts.create('a@example.com', 'pw');
      await store.close();
      await writeRaw(location, "INSERT INTO schema_migrations (name, applied_at) VALUES ('9999_from_the_future', 1)");
      await expect(Store.open(location)).rejects.toThrow(/newer Tandem \(9999_from_the_future is unknown here\)/);
      expect(await rawRows(location, 'accounts')).toHaveLength(1);
    });
  });

  // Only Postgres is shared by several relays (a SQLite file belongs to one process).
  if (backend === 'postgres')
    describe('shared by several relays', () => {
      it('lets relays starting together on one database migrate and bootstrap once', async () => {
        const location = { dataDir: tempDir(), databaseUrl: await postgres!.createDatabase() };
        const stores = await Promise.all(Array.from({ length: 3 }, () => Store.open(location)));
        try {
          const key = 'tdm_bootstrap_0123456789abcdefghijkl';
          const results = await Promise.all(
            stores.map((store) => bootstrap(store, { adminEmail: 'admin@localhost', bootstrapKey: key })),
          );
          expect(results.filter(Boolean)).toHaveLength(1);
          expect(await stores[0]!.accounts.count()).toBe(1);
          expect(await stores[1]!.apiKeys.list((await stores[2]!.accounts.first())!.id)).toHaveLength(2);
        } finally {
          await Promise.all(stores.map((store) => store.close()));
        }
        expect((await rawRows(location, 'schema_migrations')).map((r) => r.name)).toEqual(
          MIGRATIONS.map((m) => m.name),
        );
      });

      it('answers 503 while Postgres is down, and serves again once it is back', async () => {
        const own = await startPostgres(); // its own server: this test stops it
        const store = await Store.open({ dataDir: tempDir(), databaseUrl: await own.createDatabase() });
        try {
          const account = await store.accounts.create('a@example.com', 'pw');
          const { key } = await store.apiKeys.create(account.id, 'laptop');
          expect((await store.apiKeys.resolve(key))?.accountId).toBe(account.id);
          own.pause!();
          for (let i = 0; i < 3; i++) {
            await expect(store.apiKeys.resolve(key)).rejects.toMatchObject({
              code: 'store_unavailable',
              retryAfterSeconds: 5,
              message: expect.stringMatching(/database is unreachable .*Retry in a moment/),
            });
          }
          own.resume!();
          // The pool drops the connections the restart broke and opens new ones.
          await expect
            .poll(() => store.apiKeys.resolve(key).then((r) => r?.accountId, String), { timeout: 15_000 })
            .toBe(account.id);
        } finally {
          await store.close();
          await own.stop();
        }
      });

      it('says which server it could not reach, without the password', async () => {
        const url = `postgres://tandem:hunter2@127.0.0.1:${await closedPort()}/tandem`;
        const failure = Store.open({ dataDir: tempDir(), databaseUrl: url });
        await expect(failure).rejects.toThrow(
          /Cannot connect to the database at postgres:\/\/tandem:\*\*\*@127\.0\.0\.1/,
        );
        await expect(failure).rejects.not.toThrow(/hunter2/);
      });
    });
});

/** Runs one statement past the store. */
async function writeRaw(location: StoreLocation, statement: string): Promise<void> {
  if (location.databaseUrl) {
    const client = new pg.Client({ connectionString: location.databaseUrl });
    await client.connect();
    await client.query(statement).finally(() => client.end());
    return;
  }
  const raw = new Database(join(location.dataDir, 'tandem.db'));
  raw.exec(statement);
  raw.close();
}

describe('SQLite', () => {
  it('uses WAL', async () => {
    const dataDir = tempDir();
    await (await Store.open({ dataDir })).close();
    const raw = new Database(join(dataDir, 'tandem.db'));
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    raw.close();
  });

  /** A database as the store before the query builder left it: the old schema at `version`, and data. */
  function legacyDatabase(version: number): string {
    const dataDir = tempDir();
    const raw = new Database(join(dataDir, 'tandem.db'));
    raw.pragma('journal_mode = WAL');
    for (const sql of LEGACY_SQLITE_MIGRATIONS.slice(0, version)) raw.exec(sql);
    raw.pragma(`user_version = ${version}`);
    return dataDir;
  }

  it('upgrades a database made before the query builder in place, keeping every row', async () => {
    const dataDir = legacyDatabase(3);
    // Rows as the old code wrote them: a mixed-case email, a live and a revoked key, a skill, an agent,
    // usage, a device.
    const hash = await hashPassword('old password');
    const raw = new Database(join(dataDir, 'tandem.db'));
    raw.exec(`
      INSERT INTO accounts VALUES ('acc_old', 'Old.User@Example.com', '${hash}', 1700000000000);
      INSERT INTO api_keys VALUES ('key_live', 'acc_old', 'live', 'tdm_live_key', '${sha256('tdm_live_key_0123456789')}', 1700000000001, NULL, NULL);
      INSERT INTO api_keys VALUES ('key_dead', 'acc_old', 'dead', 'tdm_dead_key', '${sha256('tdm_dead_key_0123456789')}', 1700000000002, 1700000000500, 1700000000600);
      INSERT INTO skills VALUES ('skl_old', 'acc_old', 'shop.example', 'Compare prices.', 1700000000003);
      INSERT INTO agents VALUES ('agt_old', 'acc_old', 'careful', 'Ask first.', 'standard', 1700000000004);
      INSERT INTO usage VALUES ('acc_old', '2025-11-14', 7, 7000, 70, 5000);
      INSERT INTO devices VALUES ('dev_old', 'acc_old', 'Laptop', '${sha256('tdd_old_device_token')}', 1700000000005, NULL, NULL);
    `);
    raw.close();

    const store = await Store.open({ dataDir });
    try {
      const account = await store.accounts.authenticate('old.user@example.COM', 'old password');
      // The oldest account of a database from before roles administers it.
      expect(account).toEqual({
        id: 'acc_old',
        email: 'old.user@example.com',
        createdAt: 1700000000000,
        role: 'admin',
        mustChangePassword: false,
      });
      expect((await store.apiKeys.resolve('tdm_live_key_0123456789'))?.id).toBe('key_live');
      expect(await store.apiKeys.resolve('tdm_dead_key_0123456789')).toBeUndefined();
      expect(await store.skills.matching('acc_old', 'https://shop.example/')).toEqual(['Compare prices.']);
      expect(await store.agents.get('acc_old', 'agt_old')).toMatchObject({ name: 'careful', defaultMode: 'standard' });
      expect(await store.usage.day('acc_old', '2025-11-14')).toEqual({
        steps: 7,
        promptTokens: 7000,
        completionTokens: 70,
        cachedTokens: 5000,
        retrieveCalls: 0,
      });
      expect((await store.devices.resolve('tdd_old_device_token'))?.id).toBe('dev_old');
      // The upgraded database keeps working: new rows, same rules.
      await expect(store.accounts.create('OLD.user@example.com', 'pw')).rejects.toThrow();
      await store.usage.record(
        'acc_old',
        { steps: 1, promptTokens: 1, completionTokens: 1, cachedTokens: 1 },
        new Date('2025-11-14T10:00:00Z'),
      );
      expect((await store.usage.day('acc_old', '2025-11-14')).steps).toBe(8);
    } finally {
      await store.close();
    }
    const applied = (await rawRows({ dataDir }, 'schema_migrations')).map((r) => r.name);
    expect(applied).toEqual(MIGRATIONS.map((m) => m.name));
  });

  it('upgrades a database that had only the first of the old migrations', async () => {
    const dataDir = legacyDatabase(1);
    const store = await Store.open({ dataDir });
    try {
      const account = await store.accounts.create('a@example.com', 'pw');
      expect((await store.devices.issue(account.id, 'Laptop')).record.accountId).toBe(account.id);
      expect(await store.skills.add(account.id, '*', 'rule')).toMatchObject({ rule: 'rule' });
    } finally {
      await store.close();
    }
  });
});
