import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { DEFAULT_SCRIPT_TIMEOUT_MS } from './browser/script-watch';
import { AllowList } from './network/allow-list';
import { settingValueForDisplay } from './redact';
import { parseS3Url } from './store/s3-url';

const boolFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === '' ? undefined : v));

/** A number from the environment; an empty value counts as unset (z.coerce alone would read it as 0). */
const numberFromEnv = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), schema);

// Node's timers hold at most 2^31-1 ms; a longer delay fires at once, which would expire every session.
const MAX_TIMER_SECONDS = 2_147_483;
const seconds = (name: string, fallback: number) =>
  numberFromEnv(
    z.coerce
      .number()
      .positive()
      .max(MAX_TIMER_SECONDS, `${name} must be at most ${MAX_TIMER_SECONDS} (about 24 days)`)
      .default(fallback),
  );

/**
 * TANDEM_MODEL_CONTEXT_TOKENS: one number for both model tiers (`8192`), or per tier
 * (`fast=8192,standard=32768`); a tier left out is learnt from the endpoint's refusals.
 */
const contextTokens = optionalString.transform((value, ctx) => {
  if (value === undefined) return undefined;
  const tokens = (text: string) => {
    const n = Number(text.trim());
    if (Number.isSafeInteger(n) && n >= 512) return n;
    ctx.addIssue({ code: 'custom', message: `"${text.trim()}" is not a whole number of tokens of at least 512` });
    return undefined;
  };
  if (!value.includes('=')) {
    const n = tokens(value);
    return { fast: n, standard: n };
  }
  const perTier: { fast?: number | undefined; standard?: number | undefined } = {};
  for (const part of value.split(',')) {
    const [tier = '', n = ''] = part.split('=');
    if (tier.trim() === 'fast' || tier.trim() === 'standard') perTier[tier.trim() as 'fast' | 'standard'] = tokens(n);
    else ctx.addIssue({ code: 'custom', message: `"${part.trim()}": use fast=N and/or standard=N, or one number` });
  }
  return perTier;
});

const url = (name: string) => z.url({ message: `${name} must be a full URL such as http://127.0.0.1:8787` }).optional();

/** Every setting, read from the environment (and `.env`). Names and defaults are documented in the README. */
const EnvSchema = z.object({
  PORT: numberFromEnv(z.coerce.number().int().min(0).max(65535).default(8787)),
  HOST: z.string().min(1).default('127.0.0.1'),
  TANDEM_DATA_DIR: z.string().min(1).default('./.tandem'),
  TANDEM_DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'TANDEM_DATABASE_URL must be a postgres:// URL (unset: SQLite in the data dir)')
      .optional(),
  ),
  /** Screenshots in an S3-compatible bucket instead of the data directory (store/s3-url.ts has the form). */
  TANDEM_S3_URL: optionalString.superRefine((value, ctx) => {
    if (value === undefined) return;
    try {
      parseS3Url(value);
    } catch (error) {
      // parseS3Url's messages name what is wrong, never the value (it holds the secret key).
      ctx.addIssue({ code: 'custom', message: (error as Error).message });
    }
  }),
  TANDEM_PUBLIC_URL: url('TANDEM_PUBLIC_URL'),
  TANDEM_ADMIN_EMAIL: z.email().default('admin@localhost'),
  TANDEM_BOOTSTRAP_KEY: optionalString.pipe(
    z.string().min(24, 'TANDEM_BOOTSTRAP_KEY must be at least 24 characters (use a random secret)').optional(),
  ),
  TANDEM_NODE_ID: z
    .string()
    .regex(/^[a-z0-9]{1,8}$/, 'TANDEM_NODE_ID must be 1-8 lowercase letters or digits')
    .default('n0'),
  TANDEM_MAX_SESSIONS: numberFromEnv(z.coerce.number().int().min(1).default(50)),
  TANDEM_SESSION_IDLE_SECONDS: seconds('TANDEM_SESSION_IDLE_SECONDS', 600),
  /** 0 turns idle parking off; sessions are still parked when the live limit needs the room. */
  TANDEM_PARK_AFTER_SECONDS: numberFromEnv(
    z.coerce
      .number()
      .min(0)
      .max(MAX_TIMER_SECONDS, `TANDEM_PARK_AFTER_SECONDS must be at most ${MAX_TIMER_SECONDS}`)
      .default(300),
  ),
  TANDEM_MAX_PARKED_SESSIONS: numberFromEnv(z.coerce.number().int().min(0).default(5000)),
  TANDEM_SESSION_BUSY_WAIT_SECONDS: seconds('TANDEM_SESSION_BUSY_WAIT_SECONDS', 120),
  TANDEM_NAVIGATION_TIMEOUT_MS: numberFromEnv(
    z.coerce
      .number()
      .int()
      .min(1000)
      .max(MAX_TIMER_SECONDS * 1000)
      .default(30_000),
  ),
  TANDEM_MAX_STEPS: numberFromEnv(z.coerce.number().int().min(1).max(10_000).default(100)),
  TANDEM_HISTORY_DAYS: numberFromEnv(z.coerce.number().int().min(0).max(3650).default(7)),
  TANDEM_BROWSE_TIMEOUT_SECONDS: seconds('TANDEM_BROWSE_TIMEOUT_SECONDS', 600),
  TANDEM_RATE_LIMIT_PER_MINUTE: numberFromEnv(z.coerce.number().int().min(0).default(600)),
  TANDEM_SCRIPT_TIMEOUT_MS: numberFromEnv(
    z.coerce
      .number()
      .int()
      .min(1000)
      .max(MAX_TIMER_SECONDS * 1000)
      .default(DEFAULT_SCRIPT_TIMEOUT_MS),
  ),
  TANDEM_SCREENSHOT_TTL_HOURS: numberFromEnv(z.coerce.number().positive().default(24)),
  TANDEM_START_URL: z.url().default('https://www.google.com'),
  TANDEM_ALLOW_PRIVATE_NETWORK: boolFromEnv.optional(),
  /** Private hosts, *.domains, addresses and CIDR ranges sessions may reach while the guard is on. */
  TANDEM_ALLOW_HOSTS: optionalString.superRefine((value, ctx) => {
    try {
      new AllowList(value);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message.replace(/^TANDEM_ALLOW_HOSTS: /, '') });
    }
  }),
  /** The egress proxy every remote session's browser goes through: where it listens, how the browser reaches it. */
  TANDEM_EGRESS_HOST: z.string().min(1).default('127.0.0.1'),
  TANDEM_EGRESS_PORT: numberFromEnv(z.coerce.number().int().min(0).max(65535).default(0)),
  TANDEM_EGRESS_URL: z
    .url({ message: 'TANDEM_EGRESS_URL must be an http:// URL such as http://relay.internal:8788' })
    .regex(/^http:\/\//i, 'TANDEM_EGRESS_URL must be an http:// URL such as http://relay.internal:8788')
    .optional(),
  TANDEM_PROXY_URLS: optionalString,
  CHROMIUM_PATH: optionalString,
  TANDEM_BROWSER_WS_ENDPOINT: optionalString.pipe(
    z
      .string()
      .regex(/^wss?:\/\//, 'TANDEM_BROWSER_WS_ENDPOINT must be a ws:// or wss:// URL from launchServer()')
      .optional(),
  ),
  /** Browser servers, comma-separated; contexts go to the least loaded one (TANDEM_BROWSER_WS_ENDPOINT is one more). */
  TANDEM_BROWSER_WS_ENDPOINTS: optionalString.pipe(
    z
      .string()
      .refine(
        (list) => list.split(',').every((url) => /^wss?:\/\//.test(url.trim())),
        'TANDEM_BROWSER_WS_ENDPOINTS must be ws:// or wss:// URLs from launchServer(), separated by commas',
      )
      .optional(),
  ),
  TANDEM_HEADLESS: boolFromEnv.default(true),
  /** Redis shared by several relays (session directory, presence, limits, bus); unset: one relay on its own. */
  TANDEM_REDIS_URL: optionalString,
  /** Where the other relays reach this one (requests for its sessions are passed on there). */
  TANDEM_NODE_URL: optionalString,
  /** Whether anyone who reaches the console may make a (member) account. */
  TANDEM_ALLOW_SIGNUP: boolFromEnv.default(false),
  /** Whether each recorded step keeps a screenshot of the page after it (for the console's timeline). */
  TANDEM_HISTORY_SCREENSHOTS: boolFromEnv.default(true),
  TANDEM_EXTENSION_GRACE_SECONDS: seconds('TANDEM_EXTENSION_GRACE_SECONDS', 60),
  /** How the page's confirm() and prompt() are answered: by the task's words (auto), always yes, always no. */
  TANDEM_DIALOGS: z.enum(['auto', 'accept', 'dismiss']).default('auto'),
  /** Comma-separated Origins the extension gateway accepts; unset = chrome-extension://<pinned EXTENSION_ID>. */
  TANDEM_EXTENSION_ORIGINS: optionalString,
  OPENAI_API_KEY: optionalString,
  OPENAI_BASE_URL: optionalString,
  TANDEM_MODEL_FAST: optionalString,
  TANDEM_MODEL_STANDARD: optionalString,
  TANDEM_PLANNER: z.enum(['auto', 'llm', 'builtin']).default('auto'),
  TANDEM_MODEL_OUTPUT: z.enum(['auto', 'tools', 'json_schema', 'prompt']).default('auto'),
  /** Send each step's set-of-marks screenshot to the model: on, auto (unless the model refuses images), off. */
  TANDEM_MODEL_VISION: z.enum(['auto', 'on', 'off']).default('off'),
  TANDEM_MODEL_TIMEOUT_MS: numberFromEnv(
    z.coerce
      .number()
      .int()
      .min(1000)
      .max(MAX_TIMER_SECONDS * 1000)
      .default(60_000),
  ),
  TANDEM_MODEL_MAX_RETRIES: numberFromEnv(z.coerce.number().int().min(0).max(10).default(3)),
  TANDEM_MODEL_CONTEXT_TOKENS: contextTokens,
  /** The most tokens a model reply may take (`max_tokens`); never more than an eighth of a known context. */
  TANDEM_MODEL_MAX_TOKENS: numberFromEnv(z.coerce.number().int().min(256).max(1_000_000).default(4096)),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Env = z.infer<typeof EnvSchema>;

export interface Config extends Omit<Env, 'TANDEM_ALLOW_PRIVATE_NETWORK' | 'TANDEM_DATA_DIR'> {
  TANDEM_DATA_DIR: string;
  TANDEM_ALLOW_PRIVATE_NETWORK: boolean;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}

/**
 * Validates settings; one line per bad value. `overrides` win over the environment (tests, embedding).
 * A relative TANDEM_DATA_DIR (the default `./.tandem` too) is resolved against `baseDir`.
 */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  overrides: Partial<Env> = {},
  baseDir = process.cwd(),
): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const name = String(issue.path[0] ?? '');
        // Secret settings are named, never printed: this message goes to terminals and CI logs.
        return `${name}=${settingValueForDisplay(name, env[name])}: ${issue.message}`;
      }),
    );
  }
  const merged = { ...parsed.data, ...overrides };
  return {
    ...merged,
    TANDEM_DATA_DIR: resolve(baseDir, merged.TANDEM_DATA_DIR),
    TANDEM_ALLOW_PRIVATE_NETWORK: merged.TANDEM_ALLOW_PRIVATE_NETWORK ?? isLoopback(merged.HOST),
  };
}

/**
 * The folder the user started Tandem from: `.env` and the default data directory belong there. npm runs
 * a script in the package's own folder and says where it was started in INIT_CWD; every npm process
 * sets it, so it is only trusted while npm is running `start` (a child of `npm test` inherits a stale
 * one). Outside npm (`tsx relay/src/main.ts`, a container's command) it is the working directory.
 */
export function launchDir(env: Record<string, string | undefined> = process.env, cwd = process.cwd()): string {
  const fromShell = env.npm_lifecycle_event === 'start' || env.npm_lifecycle_event === 'secrets';
  return fromShell && env.INIT_CWD ? resolve(env.INIT_CWD) : cwd;
}

/** Reads `.env` from `dir` into process.env, when present (existing variables win). */
export function loadDotEnv(dir = process.cwd()): void {
  const path = join(dir, '.env');
  if (existsSync(path)) process.loadEnvFile(path);
}
