/** `npm run eval` flags: parsed and checked up front, with a clear error for each bad one. */
import { parseArgs } from 'node:util';

export const USAGE = `npm run eval -- <suites> [options]

Suites (one or more):
  --miniwob <dir>        MiniWoB++ tasks: the miniwob/html folder of github.com/Farama-Foundation/miniwob-plusplus
  --articles <dir>       article pages in Readability's test format: test/test-pages of github.com/mozilla/readability
  --fixtures             the project's own fixture tasks (built-in planner tasks on the fixture site)

Options:
  --tasks <a,b,...>      only these tasks / article cases, by name
  --part <k/n>           only part k of n of them (a stable split by name), e.g. to tune on 1/2 and check on 2/2
  --seeds <list>         MiniWoB seeds, e.g. 1-3 or 1,4,7 (default 1)
  --parallel <n>         jobs at once (default 2)
  --max-steps <n>        browse step budget per MiniWoB episode (default 20)
  --episode-seconds <n>  MiniWoB episode time limit (default 300)
  --mode <mode>          fast | standard | ludicrous, passed to browse and retrieve (default: the API's)
  --relay <url>          use this running relay instead of starting one (needs --key)
  --key <key>            API key for --relay
  --log <file>           write the started relay's logs to this file
  --out <file.json>      write every result as JSON
  --compare <old.json>   print the changes against an earlier --out
  --fail-under <pct>     exit 1 when a task suite's success rate is below pct (e.g. 100)
  --help                 this text

The harness starts a relay configured from the environment (and .env) like \`npm start\`: set
OPENAI_BASE_URL / OPENAI_API_KEY and TANDEM_MODEL_FAST / TANDEM_MODEL_STANDARD to measure a model.`;

export interface EvalOptions {
  miniwob?: string | undefined;
  articles?: string | undefined;
  fixtures: boolean;
  tasks?: string[] | undefined;
  part?: { k: number; n: number } | undefined;
  seeds: string[];
  parallel: number;
  maxSteps: number;
  episodeSeconds: number;
  mode?: 'fast' | 'standard' | 'ludicrous' | undefined;
  relay?: { url: string; key: string } | undefined;
  log?: string | undefined;
  out?: string | undefined;
  compare?: string | undefined;
  failUnder?: number | undefined;
  help: boolean;
}

export class UsageError extends Error {}

const MAX_SEEDS = 1000;

/** "1-3" → 1,2,3; "1,4,7" → 1,4,7; mixed lists too. */
export function parseSeeds(text: string): string[] {
  const seeds: string[] = [];
  for (const part of text.split(',')) {
    const item = part.trim();
    const range = /^(\d{1,9})-(\d{1,9})$/.exec(item);
    if (range) {
      const from = Number(range[1]);
      const to = Number(range[2]);
      if (to < from || to - from >= MAX_SEEDS)
        throw new UsageError(`--seeds: ${item} is not a range of at most ${MAX_SEEDS} seeds`);
      for (let s = from; s <= to; s++) seeds.push(String(s));
    } else if (/^\d{1,9}$/.test(item)) {
      seeds.push(item);
    } else {
      throw new UsageError(`--seeds: "${item}" is neither a number nor a range like 1-3`);
    }
    if (seeds.length > MAX_SEEDS) throw new UsageError(`--seeds: at most ${MAX_SEEDS} seeds`);
  }
  return [...new Set(seeds)];
}

function positive(name: string, value: string | undefined, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max)
    throw new UsageError(`--${name}: "${value}" is not a whole number from 1 to ${max}`);
  return n;
}

export function parseOptions(argv: string[]): EvalOptions {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        miniwob: { type: 'string' },
        articles: { type: 'string' },
        fixtures: { type: 'boolean' },
        tasks: { type: 'string' },
        part: { type: 'string' },
        seeds: { type: 'string' },
        parallel: { type: 'string' },
        'max-steps': { type: 'string' },
        'episode-seconds': { type: 'string' },
        mode: { type: 'string' },
        relay: { type: 'string' },
        key: { type: 'string' },
        log: { type: 'string' },
        out: { type: 'string' },
        compare: { type: 'string' },
        'fail-under': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const str = (name: string) => values[name] as string | undefined;
  const options: EvalOptions = {
    miniwob: str('miniwob'),
    articles: str('articles'),
    fixtures: values.fixtures === true,
    seeds: parseSeeds(str('seeds') ?? '1'),
    parallel: positive('parallel', str('parallel'), 2, 64),
    maxSteps: positive('max-steps', str('max-steps'), 20, 100),
    episodeSeconds: positive('episode-seconds', str('episode-seconds'), 300, 86_400),
    log: str('log'),
    out: str('out'),
    compare: str('compare'),
    help: values.help === true,
  };
  if (options.help) return options;
  if (!options.miniwob && !options.articles && !options.fixtures) {
    throw new UsageError('name at least one suite: --miniwob <dir>, --articles <dir> or --fixtures');
  }
  const tasks = str('tasks');
  if (tasks !== undefined) {
    options.tasks = tasks
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean);
    if (options.tasks.length === 0) throw new UsageError('--tasks: give task names separated by commas');
  }
  const part = str('part');
  if (part !== undefined) {
    const m = /^(\d{1,3})\/(\d{1,3})$/.exec(part);
    const k = Number(m?.[1]);
    const n = Number(m?.[2]);
    if (!m || n < 1 || k < 1 || k > n) throw new UsageError(`--part: "${part}" is not k/n with 1 <= k <= n, e.g. 1/2`);
    options.part = { k, n };
  }
  const mode = str('mode');
  if (mode !== undefined) {
    if (mode !== 'fast' && mode !== 'standard' && mode !== 'ludicrous')
      throw new UsageError(`--mode: "${mode}" is not fast, standard or ludicrous`);
    options.mode = mode;
  }
  const relay = str('relay');
  const key = str('key');
  if ((relay === undefined) !== (key === undefined)) throw new UsageError('--relay and --key go together');
  if (relay !== undefined && key !== undefined) {
    if (!/^https?:\/\//.test(relay)) throw new UsageError(`--relay: "${relay}" is not an http(s) URL`);
    options.relay = { url: relay, key };
  }
  const failUnder = str('fail-under');
  if (failUnder !== undefined) {
    const pct = Number(failUnder);
    if (!Number.isFinite(pct) || pct < 0 || pct > 100)
      throw new UsageError(`--fail-under: "${failUnder}" is not a percentage from 0 to 100`);
    options.failUnder = pct;
  }
  return options;
}

/** FNV-1a: a stable hash, so `--part` splits the same way on every machine and run. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** The names `--tasks` and `--part` keep, in their order. */
export function selectNames(names: string[], options: Pick<EvalOptions, 'tasks' | 'part'>): string[] {
  let kept = options.tasks ? names.filter((n) => options.tasks?.includes(n)) : names;
  if (options.part) {
    const { k, n } = options.part;
    kept = kept.filter((name) => hash(name) % n === k - 1);
  }
  return kept;
}
