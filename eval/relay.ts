/**
 * The relay the harness measures, reached only through the public HTTP API: one it starts itself
 * (configured from the environment and .env like `npm start`, on a temp data dir and a free loopback
 * port), or a running one given by URL and key.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig, loadDotEnv, type Relay, startRelay } from '@tandem/relay';
import { pino } from 'pino';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface RelayClient {
  url: string;
  /** What answers: "built-in planner", "llm planner (model …)", or "relay at <url>". */
  describe: string;
  /** Calls the API with the key; resolves the JSON body of a 2xx answer, else throws ApiError. */
  call<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T>;
  /** The in-process relay when the harness started it (the fixture suite reads its sessions' pages). */
  local?: { relay: Relay; accountId: string };
  close(): Promise<void>;
}

function client(url: string, key: string): Pick<RelayClient, 'url' | 'call'> {
  const base = url.replace(/\/+$/, '');
  return {
    url: base,
    async call<T>(method: string, path: string, body?: unknown): Promise<T> {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${key}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // Not JSON: the text itself is the best message.
      }
      if (!res.ok) {
        const message = (parsed as { message?: unknown })?.message;
        const detail = typeof message === 'string' ? message : text.slice(0, 500);
        throw new ApiError(res.status, `${method} ${path}: ${res.status} ${detail}`);
      }
      return parsed as T;
    },
  };
}

/** A running relay at `url`, called with `key`. */
export function remoteRelay(url: string, key: string): RelayClient {
  return { ...client(url, key), describe: `relay at ${url}`, async close() {} };
}

export interface LocalRelayOptions {
  /** Live sessions the relay allows; the harness needs one per parallel job. */
  maxSessions: number;
  /** Write the relay's logs (LOG_LEVEL, JSON lines) to this file; silent when unset. */
  logFile?: string | undefined;
}

/**
 * Starts a relay in this process, configured from the environment (and .env) like `npm start`, so
 * OPENAI_* / TANDEM_MODEL_* / TANDEM_PLANNER pick the planner and model. It listens on a free loopback
 * port with a temp data dir, and may reach loopback addresses, where the harness serves the corpora.
 */
export async function startLocalRelay(options: LocalRelayOptions): Promise<RelayClient> {
  loadDotEnv();
  const dataDir = mkdtempSync(join(tmpdir(), 'tandem-eval-'));
  const key = `tdm_eval_${randomBytes(18).toString('hex')}`;
  let relay: Relay;
  try {
    const config = loadConfig(process.env, {
      PORT: 0,
      HOST: '127.0.0.1',
      TANDEM_DATA_DIR: dataDir,
      TANDEM_BOOTSTRAP_KEY: key,
      TANDEM_ALLOW_PRIVATE_NETWORK: true,
      TANDEM_MAX_SESSIONS: Math.max(options.maxSessions, Number(process.env.TANDEM_MAX_SESSIONS ?? 0) || 0),
    });
    const logger = options.logFile
      ? pino({ level: config.LOG_LEVEL }, pino.destination({ dest: options.logFile, sync: true }))
      : pino({ level: 'silent' });
    relay = await startRelay(config, { logger });
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    if (error instanceof ConfigError) throw new Error(`${error.message}\nFix these environment variables (or .env).`);
    throw error;
  }
  const accountId = relay.services.store.apiKeys.resolve(key)?.accountId;
  if (!accountId) throw new Error('the relay did not accept the bootstrap key it was started with');
  const planner = relay.services.planner.name;
  const config = relay.services.config;
  const model = config.TANDEM_MODEL_STANDARD ?? config.TANDEM_MODEL_FAST;
  return {
    ...client(relay.url, key),
    describe: planner === 'llm' ? `llm planner (model ${model ?? 'default'})` : 'built-in planner',
    local: { relay, accountId },
    async close() {
      await relay.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
