/**
 * The store's hot path: resolving an API key, which every API request does. Baseline: the synchronous
 * store this one replaced (a better-sqlite3 statement prepared per call, on the same file). Measured: the
 * query-builder store on SQLite and on Postgres (a throwaway cluster on loopback), one call at a time and
 * 50 at once; then authenticated requests through HTTP (GET /v1/web/sessions: little besides the key).
 * The variants run interleaved in rounds, so a busy machine slows them alike.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type PostgresServer, postgresAvailable, startPostgres } from '@tandem/e2e/fixtures';
import Database from 'better-sqlite3';
import { BENCH_KEY, type BenchRelay, startBenchRelay } from './relay';
import { percentile, printTable, round, saveResults } from './stats';

const ROUNDS = 10;
const CALLS = Number(process.env.BENCH_STORE_CALLS ?? 500); // per round and variant
const REQUESTS = Number(process.env.BENCH_STORE_REQUESTS ?? 200); // per round and backend
const CONCURRENCY = 50;

interface Variant {
  name: string;
  call: () => unknown;
  samples: number[];
  /** Calls made and milliseconds spent with CONCURRENCY in flight, over every round. */
  concurrent: { calls: number; ms: number };
}

const variant = (name: string, call: () => unknown): Variant => ({
  name,
  call,
  samples: [],
  concurrent: { calls: 0, ms: 0 },
});

/** Each round: `calls` one at a time (µs each), then `calls` with CONCURRENCY in flight (calls/s). */
async function interleave(variants: Variant[], calls: number): Promise<void> {
  for (const v of variants) for (let i = 0; i < calls; i++) await v.call(); // warm-up: JIT, caches, pool
  for (let round = 0; round < ROUNDS; round++) {
    for (const v of variants) {
      for (let i = 0; i < calls; i++) {
        const t = performance.now();
        await v.call();
        v.samples.push((performance.now() - t) * 1000);
      }
      let next = 0;
      const t = performance.now();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next++ < calls) await v.call();
        }),
      );
      v.concurrent.calls += calls;
      v.concurrent.ms += performance.now() - t;
    }
  }
}

const summary = (v: Variant) => ({
  p50Us: percentile(v.samples, 50),
  p99Us: percentile(v.samples, 99),
  perSecond: v.concurrent.calls / (v.concurrent.ms / 1000),
});

export async function benchStore(): Promise<void> {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'tandem-bench-store-'));
    dirs.push(dir);
    return dir;
  };
  const relays: { backend: string; relay: BenchRelay }[] = [];
  let postgres: PostgresServer | undefined;
  let old: Database.Database | undefined;
  try {
    const sqliteDir = tempDir();
    relays.push({ backend: 'sqlite', relay: await startBenchRelay({ TANDEM_DATA_DIR: sqliteDir }) });
    if (postgresAvailable()) {
      postgres = await startPostgres();
      const databaseUrl = await postgres.createDatabase();
      relays.push({
        backend: 'postgres',
        relay: await startBenchRelay({ TANDEM_DATA_DIR: tempDir(), TANDEM_DATABASE_URL: databaseUrl }),
      });
    } else {
      process.stdout.write('store bench: Postgres is not installed, only SQLite measured\n');
    }

    // The replaced store's resolve(): hash, prepare, get, on the SQLite relay's own file.
    old = new Database(join(sqliteDir, 'tandem.db'));
    const db = old;
    const baseline = variant('old sync store (baseline)', () => {
      const hash = createHash('sha256').update(BENCH_KEY).digest('hex');
      if (!db.prepare('SELECT * FROM api_keys WHERE hash = ? AND revoked_at IS NULL').get(hash)) {
        throw new Error('the bench key is missing');
      }
    });
    const resolves = relays.map(({ backend, relay }) =>
      variant(`query builder, ${backend}`, async () => {
        if (!(await relay.services.store.apiKeys.resolve(BENCH_KEY))) throw new Error('the bench key is missing');
      }),
    );
    await interleave([baseline, ...resolves], CALLS);

    const requests = relays.map(({ backend, relay }) =>
      variant(backend, async () => {
        const res = await fetch(`${relay.url}/v1/web/sessions`, { headers: relay.headers });
        if (res.status !== 200) throw new Error(`GET /v1/web/sessions: ${res.status}`);
        await res.arrayBuffer();
      }),
    );
    await interleave(requests, REQUESTS);

    const base = summary(baseline);
    const us = (n: number) => round(n, 1);
    printTable(
      `API key resolution (${ROUNDS}×${CALLS} calls each, interleaved; calls/s with ${CONCURRENCY} in flight)`,
      [
        { store: baseline.name, p50_us: us(base.p50Us), p99_us: us(base.p99Us), ratio_p50: 1, calls_per_s: '—' },
        ...resolves.map((v) => {
          const s = summary(v);
          return {
            store: v.name,
            p50_us: us(s.p50Us),
            p99_us: us(s.p99Us),
            ratio_p50: round(s.p50Us / base.p50Us, 2),
            calls_per_s: Math.round(s.perSecond),
          };
        }),
      ],
    );
    printTable(`Authenticated GET /v1/web/sessions (${ROUNDS}×${REQUESTS} requests per backend, interleaved)`, [
      ...requests.map((v, i) => {
        const s = summary(v);
        return {
          backend: v.name,
          p50_ms: round(s.p50Us / 1000, 2),
          p99_ms: round(s.p99Us / 1000, 2),
          key_resolution_share_of_p50: `${round((100 * summary(resolves[i]!).p50Us) / s.p50Us)}%`,
          requests_per_s: Math.round(s.perSecond),
        };
      }),
    ]);
    saveResults('store', {
      baseline: base,
      resolve: Object.fromEntries(relays.map(({ backend }, i) => [backend, summary(resolves[i]!)])),
      request: Object.fromEntries(relays.map(({ backend }, i) => [backend, summary(requests[i]!)])),
    });
  } finally {
    old?.close();
    for (const { relay } of relays) await relay.close();
    await postgres?.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}
