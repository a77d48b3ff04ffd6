/** A real relay for benchmarks: temp data dir, ephemeral port, silent logs; `close()` removes everything. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Env, loadConfig, type Relay, startRelay } from '@tandem/relay';
import { pino } from 'pino';

export const BENCH_KEY = 'tdm_bench_key_0123456789abcdefghijkl';

export interface BenchRelay extends Relay {
  /** POSTs JSON with the bench key; throws unless 2xx. */
  post(path: string, body: unknown): Promise<Record<string, unknown>>;
  headers: Record<string, string>;
}

export async function startBenchRelay(overrides: Partial<Env> = {}): Promise<BenchRelay> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tandem-bench-'));
  const relay = await startRelay(
    loadConfig(
      { CHROMIUM_PATH: process.env.CHROMIUM_PATH },
      { PORT: 0, TANDEM_DATA_DIR: dataDir, TANDEM_BOOTSTRAP_KEY: BENCH_KEY, ...overrides },
    ),
    { logger: pino({ level: 'silent' }) },
  );
  const headers = { X_SERVICE_API_KEY: BENCH_KEY, 'content-type': 'application/json' };
  return {
    ...relay,
    headers,
    async post(path, body) {
      const res = await fetch(`${relay.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as Record<string, unknown>;
    },
    async close() {
      await relay.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Wraps the relay's planner so every plan() call's time goes to `record` (the planner bench's plan() time). */
export function timePlanner(relay: Relay, record: (ms: number) => void): void {
  const planner = relay.services.planner;
  relay.services.planner = {
    name: planner.name,
    async plan(input) {
      const t = performance.now();
      try {
        return await planner.plan(input);
      } finally {
        record(performance.now() - t);
      }
    },
  };
}
