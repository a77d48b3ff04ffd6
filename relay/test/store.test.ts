import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { bootstrap } from '../src/store/bootstrap';
import { Store } from '../src/store/store';
import { startTestRelay } from './support';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-store-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('first start', () => {
  it('creates an account and a working API key once, and never again', async () => {
    const dataDir = tempDir();
    const relay = await startTestRelay({
      TANDEM_DATA_DIR: dataDir,
      TANDEM_BOOTSTRAP_KEY: undefined,
      TANDEM_ADMIN_EMAIL: 'me@example.com',
    });
    const first = relay.firstStart;
    await relay.services.sessions.closeAll();
    expect(first?.email).toBe('me@example.com');
    expect(first?.apiKey).toMatch(/^tdm_[0-9A-Za-z]{30,}$/);
    expect(first?.password.length).toBeGreaterThanOrEqual(16);
    expect((await relay.api('GET', '/v1/web/sessions', { key: first!.apiKey })).status).toBe(200);
    expect(await relay.services.store.accounts.authenticate('me@example.com', first!.password)).toBeDefined();
    expect(await relay.services.store.accounts.authenticate('me@example.com', 'wrong')).toBeUndefined();
    await relay.close().catch(() => undefined);

    const store = Store.open(dataDir);
    try {
      expect(await bootstrap(store, { adminEmail: 'me@example.com' })).toBeUndefined();
      expect(store.accounts.count()).toBe(1);
    } finally {
      store.close();
    }
  });

  it('makes sure TANDEM_BOOTSTRAP_KEY exists, without duplicating it on restart', async () => {
    const dataDir = tempDir();
    const key = 'tdm_bootstrap_0123456789abcdefghijkl';
    for (let i = 0; i < 2; i++) {
      const store = Store.open(dataDir);
      await bootstrap(store, { adminEmail: 'admin@localhost', bootstrapKey: key });
      expect(store.apiKeys.resolve(key)).toBeDefined();
      expect(store.apiKeys.list(store.accounts.first()!.id)).toHaveLength(2);
      store.close();
    }
  });
});

describe('API keys at rest', () => {
  it('stores only a SHA-256 hash and a short visible prefix, and records last use', async () => {
    const dataDir = tempDir();
    const store = Store.open(dataDir);
    const account = await store.accounts.create('a@example.com', 'pw');
    const { key, record } = store.apiKeys.create(account.id, 'ci');
    expect(record.prefix).toBe(key.slice(0, 12));
    expect(record.lastUsedAt).toBeNull();
    expect(store.apiKeys.resolve(key)?.lastUsedAt).toBeGreaterThan(0);
    store.close();

    const raw = new Database(join(dataDir, 'tandem.db'), { readonly: true });
    const rows = raw.prepare('SELECT * FROM api_keys').all() as Record<string, unknown>[];
    raw.close();
    expect(JSON.stringify(rows)).not.toContain(key);
    expect(rows[0]).toMatchObject({ prefix: key.slice(0, 12), hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(rows[0]!.last_used_at).toBeGreaterThan(0);
  });

  it('uses WAL and migrates a database to the latest schema version', () => {
    const dataDir = tempDir();
    Store.open(dataDir).close();
    const raw = new Database(join(dataDir, 'tandem.db'));
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(raw.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(1);
    raw.close();
  });
});
