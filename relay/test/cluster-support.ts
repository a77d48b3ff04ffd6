// What a cluster of relays shares in a test (the fixture site, a Redis, a Postgres database) and its relays:
// each with its own node id and data directory, all on that one Redis and database.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type FixtureSite,
  type PostgresServer,
  type RedisServer,
  startFixtureSite,
  startPostgres,
  startRedis,
} from '@tandem/e2e/fixtures';
import { startTestRelay, type TestRelay } from './support';

export interface ClusterBed {
  site: FixtureSite;
  redis: RedisServer;
  databaseUrl: string;
  /** Every relay `node` started, in order. */
  relays: TestRelay[];
  /** Starts a relay of the cluster (built-in planner) with `settings` on top. */
  node(id: string, settings?: Record<string, unknown>): Promise<TestRelay>;
  /** A fresh data directory, removed by `close`. */
  dataDir(name: string): string;
  /** Stops the relays, then the shared services, then removes the data directories. */
  close(): Promise<void>;
}

export async function startClusterBed(): Promise<ClusterBed> {
  const [site, redis, postgres]: [FixtureSite, RedisServer, PostgresServer] = await Promise.all([
    startFixtureSite(),
    startRedis(),
    startPostgres(),
  ]);
  const databaseUrl = await postgres.createDatabase();
  const dirs: string[] = [];
  const relays: TestRelay[] = [];
  const dataDir = (name: string) => {
    const dir = mkdtempSync(join(tmpdir(), `tandem-${name}-`));
    dirs.push(dir);
    return dir;
  };
  return {
    site,
    redis,
    databaseUrl,
    relays,
    dataDir,
    async node(id, settings = {}) {
      const relay = await startTestRelay(
        { TANDEM_NODE_ID: id, TANDEM_REDIS_URL: redis.url, TANDEM_PLANNER: 'builtin', ...settings },
        { dataDir: dataDir(`node-${id}`), databaseUrl },
      );
      relays.push(relay);
      return relay;
    },
    async close() {
      for (const relay of relays) await relay.close().catch(() => undefined);
      await Promise.all([site.close(), redis.stop(), postgres.stop()]);
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    },
  };
}
