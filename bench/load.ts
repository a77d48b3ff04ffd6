/**
 * Load: SESSIONS concurrent remote sessions, each doing 5 built-in-planner steps on a fixture page
 * through the HTTP API, against a relay in its own process (started from the environment as `npm start`
 * is). Reports errors, p50/p95 of create and
 * step latency, peak memory (PSS) of the relay and of its Chromium, and what is left after half the
 * sessions are closed and the other half expire: live sessions, browser contexts and pages (counted in
 * the relay's own Chromium), renderer processes, the relay's TCP sockets and file descriptors, and its
 * active Node handles, each against the same count before the load.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { startFixtureSite } from '@tandem/e2e/fixtures';
import type { RelayReply, RelayRequest, RelayStats } from './load-relay';
import { BENCH_KEY } from './relay';
import { descendants, percentile, printTable, pssKiB, round, saveResults } from './stats';

const SESSIONS = Number(process.env.BENCH_LOAD_SESSIONS ?? 50);
/**
 * Idle expiry of the relay under load. Every session waits, idle, until all are created (so all of
 * them are live at once), so this must outlast the create phase of a busy machine.
 */
const IDLE_SECONDS = Number(process.env.BENCH_LOAD_IDLE_SECONDS ?? 300);
const SAMPLE_MS = 1000;

interface Flow {
  page: string;
  /** The 5 commands, one step each. */
  steps: string[];
  /** Why the flow did not reach its end, or undefined when it did. */
  check(last: Answer, session: string, call: Call): Promise<string | undefined>;
}

const FLOWS: Flow[] = [
  {
    page: '/form.html',
    steps: ['type Ada Lovelace into Name', 'type ada@example.com into Email', 'scroll down', 'scroll up', 'click Send'],
    async check(last) {
      const want = '/echo?name=Ada+Lovelace&email=ada%40example.com';
      return String(last.body.url).includes(want)
        ? undefined
        : `ended at ${last.body.url}, not ${want} (last step: ${last.body.status} ${last.body.message})`;
    },
  },
  {
    page: '/login.html',
    steps: [
      'type ada@example.com into Email address',
      'type correct-horse into Password',
      'check Keep me signed in',
      'scroll down',
      'click Sign in',
    ],
    async check(_last, session, call) {
      const read = await call('POST', '/v1/web/retrieve', {
        cmd: 'the page',
        session_id: session,
        mode: 'ludicrous',
        format: 'markdown',
      });
      return String(read.body.message).includes('Welcome back') ? undefined : 'the sign-in did not go through';
    },
  },
];

interface Answer {
  status: number;
  retryAfter: string | undefined;
  body: Record<string, unknown>;
  ms: number;
}
type Call = (method: string, path: string, body?: unknown) => Promise<Answer>;

/** Requests sent again because a kept-alive socket was closed by the server as they went out. */
let resent = 0;

/**
 * JSON over node:http with a keep-alive agent the benchmark owns (and destroys to count sockets). A request
 * on a reused socket that the server closed for idleness at that very moment is sent again once, as
 * Node's documentation advises (`request.reusedSocket`); nothing else is retried.
 */
function caller(base: string, agent: Agent): Call {
  const call: Call = (method, path, body) =>
    sendOnce(method, path, body).catch((error: ConnectionError) => {
      if (!error.reused || error.code !== 'ECONNRESET') throw error;
      resent++;
      return sendOnce(method, path, body);
    });
  const sendOnce = (method: string, path: string, body?: unknown): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const started = performance.now();
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = request(
        `${base}${path}`,
        {
          method,
          agent,
          headers: { X_SERVICE_API_KEY: BENCH_KEY, ...(payload ? { 'content-type': 'application/json' } : {}) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: Record<string, unknown>;
            try {
              parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
            } catch {
              parsed = { message: text };
            }
            const retryAfter = res.headers['retry-after'];
            resolve({
              status: res.statusCode ?? 0,
              retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
              body: parsed,
              ms: performance.now() - started,
            });
          });
        },
      );
      req.on('error', (error: ConnectionError) => {
        error.reused = req.reusedSocket;
        reject(error);
      });
      req.end(payload);
    });
  return call;
}

interface ConnectionError extends NodeJS.ErrnoException {
  reused?: boolean;
}

/** The relay child and its IPC. */
class RelayProcess {
  private nextId = 1;
  private readonly waiting = new Map<number, (stats: RelayStats) => void>();

  private constructor(
    readonly child: ChildProcess,
    readonly url: string,
  ) {
    child.on('message', (reply: RelayReply) => {
      if (reply.type === 'stats') this.waiting.get(reply.id)?.(reply.stats);
    });
  }

  static async start(env: Record<string, string>): Promise<RelayProcess> {
    const script = fileURLToPath(new URL('./load-relay.ts', import.meta.url));
    const child = fork(script, [], {
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const [ready] = (await Promise.race([
      once(child, 'message'),
      once(child, 'exit').then(() => {
        throw new Error('the load relay exited before it listened');
      }),
    ])) as [RelayReply];
    if (ready.type !== 'ready') throw new Error(`the load relay said ${JSON.stringify(ready)} first`);
    return new RelayProcess(child, ready.url);
  }

  get pid(): number {
    return this.child.pid as number;
  }

  stats(): Promise<RelayStats> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, (stats) => {
        this.waiting.delete(id);
        resolve(stats);
      });
      this.child.send({ type: 'stats', id } satisfies RelayRequest);
    });
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null) return;
    this.child.send({ type: 'close' } satisfies RelayRequest);
    const exited = once(this.child, 'exit');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(timer);
  }
}

/** TCP sockets and file descriptors a process holds, from /proc (Linux). */
function socketsOf(pid: number): { fds: number; tcpEstablished: number; tcpListening: number; tcpOther: number } {
  const inodes = new Set<string>();
  const fdDir = `/proc/${pid}/fd`;
  const fds = readdirSync(fdDir);
  for (const fd of fds) {
    try {
      const target = readlinkSync(join(fdDir, fd));
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode) inodes.add(inode);
    } catch {
      // closed while listing
    }
  }
  const counts = { fds: fds.length, tcpEstablished: 0, tcpListening: 0, tcpOther: 0 };
  for (const table of ['tcp', 'tcp6']) {
    const rows = readFileSync(`/proc/${pid}/net/${table}`, 'utf8').trim().split('\n').slice(1);
    for (const row of rows) {
      const cols = row.trim().split(/\s+/);
      if (!inodes.has(cols[9] ?? '')) continue;
      if (cols[3] === '01') counts.tcpEstablished++;
      else if (cols[3] === '0A') counts.tcpListening++;
      else counts.tcpOther++;
    }
  }
  return counts;
}

/** Chromium renderer processes under the relay. */
function renderers(relayPid: number): number {
  let count = 0;
  for (const pid of descendants(relayPid)) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer')) count++;
    } catch {
      // gone
    }
  }
  return count;
}

interface Snapshot {
  stats: RelayStats;
  renderers: number;
  sockets: ReturnType<typeof socketsOf>;
}

async function snapshot(relay: RelayProcess): Promise<Snapshot> {
  return { stats: await relay.stats(), renderers: renderers(relay.pid), sockets: socketsOf(relay.pid) };
}

/** Polls until `done(snapshot)` or `ms` pass; returns the last snapshot either way. */
async function settle(relay: RelayProcess, done: (s: Snapshot) => boolean, ms: number): Promise<Snapshot> {
  const deadline = Date.now() + ms;
  let last = await snapshot(relay);
  while (!done(last) && Date.now() < deadline) {
    await delay(250);
    last = await snapshot(relay);
  }
  return last;
}

/** Peak PSS of the relay and of its Chromium (all processes), sampled while the load runs. */
function sampleMemory(pid: number) {
  const peak = { relayMiB: 0, chromiumMiB: 0 };
  const read = () => {
    const relay = pssKiB(pid) / 1024;
    const chromium = descendants(pid).reduce((sum, p) => sum + pssKiB(p), 0) / 1024;
    peak.relayMiB = Math.max(peak.relayMiB, relay);
    peak.chromiumMiB = Math.max(peak.chromiumMiB, chromium);
    return { relay, chromium };
  };
  const timer = setInterval(read, SAMPLE_MS);
  return {
    read,
    stop() {
      clearInterval(timer);
      read();
      return peak;
    },
  };
}

function handlesDiff(before: Record<string, number>, after: Record<string, number>): string {
  const types = new Set([...Object.keys(before), ...Object.keys(after)]);
  const diff = [...types]
    .filter((t) => (after[t] ?? 0) !== (before[t] ?? 0))
    .map((t) => `${t} ${before[t] ?? 0}→${after[t] ?? 0}`);
  return diff.length ? diff.join(', ') : 'none';
}

export async function benchLoad(): Promise<void> {
  const site = await startFixtureSite();
  const dataDir = mkdtempSync(join(tmpdir(), 'tandem-bench-load-'));
  const relay = await RelayProcess.start({
    PORT: '0',
    HOST: '127.0.0.1',
    TANDEM_DATA_DIR: dataDir,
    TANDEM_BOOTSTRAP_KEY: BENCH_KEY,
    TANDEM_PLANNER: 'builtin',
    TANDEM_MAX_SESSIONS: String(SESSIONS),
    TANDEM_SESSION_IDLE_SECONDS: String(IDLE_SECONDS),
    LOG_LEVEL: 'silent',
  });
  try {
    // Warm up (Chromium starts on first use), then count what an idle relay with a running Chromium holds.
    const warmAgent = new Agent({ keepAlive: true });
    const warm = caller(relay.url, warmAgent);
    const first = await warm('POST', '/v1/web/session', { url: `${site.url}/form.html` });
    if (first.status !== 200) throw new Error(`load bench: warm-up create answered ${first.status}`);
    await warm('DELETE', `/v1/web/session/${first.body.session_id}`);
    warmAgent.destroy();
    const before = await settle(
      relay,
      (s) => s.stats.contexts === 0 && s.sockets.tcpEstablished === 0 && s.renderers === 0,
      10_000,
    );
    const memory = sampleMemory(relay.pid);
    const idle = memory.read();

    const agent = new Agent({ keepAlive: true, maxSockets: SESSIONS + 8 });
    const call = caller(relay.url, agent);
    const createMs: number[] = [];
    const stepMs: number[] = [];
    const errors: string[] = [];
    const closeMs: number[] = [];
    let created = 0;
    let allCreated: () => void = () => undefined;
    const everyoneCreated = new Promise<void>((resolve) => {
      allCreated = resolve;
    });
    // Steps start once every session is live (and one was parked for a create beyond the cap), so all run together.
    let go: () => void = () => undefined;
    const stepping = new Promise<void>((resolve) => {
      go = resolve;
    });

    const client = (i: number) =>
      run(i).catch((error: unknown) => {
        errors.push(`client ${i}: ${String(error)}`);
      });
    const run = async (i: number) => {
      const flow = FLOWS[i % FLOWS.length] as Flow;
      const made = await call('POST', '/v1/web/session', { url: `${site.url}${flow.page}` }).finally(() => {
        if (++created === SESSIONS) allCreated();
      });
      createMs.push(made.ms);
      if (made.status !== 200) {
        errors.push(`create ${flow.page}: ${made.status} ${made.body.message}`);
        return;
      }
      const id = made.body.session_id as string;
      await stepping;
      let last = made;
      for (const cmd of flow.steps) {
        last = await call('POST', `/v1/web/session/${id}`, { cmd, stream: false });
        stepMs.push(last.ms);
        if (last.status !== 200 || !['CONTINUE', 'DONE'].includes(String(last.body.status))) {
          errors.push(`step "${cmd}" on ${flow.page}: ${last.status} ${last.body.status ?? ''} ${last.body.message}`);
          return;
        }
      }
      const failed = await flow.check(last, id, call);
      if (failed) errors.push(`${flow.page}: ${failed}`);
      // Half the sessions are closed when done, the other half left to expire.
      if (i % 2 === 1) return;
      const closed = await call('DELETE', `/v1/web/session/${id}`);
      closeMs.push(closed.ms);
      if (closed.status !== 200) errors.push(`close: ${closed.status} ${closed.body.message}`);
    };

    const started = performance.now();
    const clients = Array.from({ length: SESSIONS }, (_, i) => client(i));
    // With every slot taken and every session idle, one more create parks the least recently used one
    // (which its client's first step then revives) instead of answering 503.
    await everyoneCreated;
    const createSeconds = (performance.now() - started) / 1000;
    const extra = await call('POST', '/v1/web/session', { url: `${site.url}/index.html` });
    const parkedForRoom = (await relay.stats()).parked;
    const parkedOne = extra.status === 200 && parkedForRoom === 1;
    if (!parkedOne) {
      errors.push(
        `the create beyond the cap answered ${extra.status} ${extra.body.message ?? ''} with ${parkedForRoom} sessions parked, not 200 with one parked`,
      );
    }
    if (extra.status === 200) await call('DELETE', `/v1/web/session/${extra.body.session_id}`);
    const stepsStarted = performance.now();
    go();
    await Promise.all(clients);
    const wallMs = performance.now() - started;
    const stepPhaseSeconds = (performance.now() - stepsStarted) / 1000;
    const peak = memory.stop();
    agent.destroy();
    const expiredAt = Date.now();
    const after = await settle(
      relay,
      (s) =>
        s.stats.sessions === 0 &&
        s.stats.contexts === 0 &&
        s.renderers <= before.renderers &&
        s.sockets.tcpEstablished <= before.sockets.tcpEstablished,
      (IDLE_SECONDS + 45) * 1000,
    );
    const expiryWaitS = (Date.now() - expiredAt) / 1000;

    const leftover = {
      sessions: after.stats.sessions,
      contexts: after.stats.contexts,
      pages: after.stats.pages,
      renderers: after.renderers - before.renderers,
      tcpEstablished: after.sockets.tcpEstablished - before.sockets.tcpEstablished,
      tcpOther: after.sockets.tcpOther - before.sockets.tcpOther,
      fds: after.sockets.fds - before.sockets.fds,
    };
    const clean = Object.values(leftover).every((n) => n <= 0);
    const pass = errors.length === 0 && clean;
    const figures = {
      sessions: SESSIONS,
      stepsPerSession: 5,
      steps: stepMs.length,
      errors: errors.length,
      resentOnKeepAliveRace: resent,
      errorSamples: errors.slice(0, 5),
      parkedForRoom: parkedOne ? 1 : 0,
      createMs: { p50: percentile(createMs, 50), p95: percentile(createMs, 95) },
      stepMs: { p50: percentile(stepMs, 50), p95: percentile(stepMs, 95), max: Math.max(...stepMs) },
      closeMs: { p50: percentile(closeMs, 50), p95: percentile(closeMs, 95) },
      wallSeconds: wallMs / 1000,
      createPhaseSeconds: createSeconds,
      stepPhaseSeconds,
      stepsPerSecond: stepMs.length / stepPhaseSeconds,
      memoryMiB: {
        relay: { idle: idle.relay, peak: peak.relayMiB },
        chromium: { idle: idle.chromium, peak: peak.chromiumMiB },
        perSessionAtPeak: (peak.relayMiB - idle.relay + peak.chromiumMiB - idle.chromium) / SESSIONS,
      },
      expiryWaitSeconds: expiryWaitS,
      before: { ...before.sockets, renderers: before.renderers, handles: before.stats.handles },
      after: {
        ...after.sockets,
        renderers: after.renderers,
        sessions: after.stats.sessions,
        contexts: after.stats.contexts,
        pages: after.stats.pages,
        handles: after.stats.handles,
      },
      leftover,
      pass,
    };

    printTable(`Load: ${SESSIONS} concurrent remote sessions × 5 built-in-planner steps (relay in its own process)`, [
      { measure: 'steps run / errors', value: `${stepMs.length} / ${errors.length}` },
      { measure: 'requests resent (keep-alive socket closed as they went out)', value: resent },
      {
        measure: `create beyond TANDEM_MAX_SESSIONS=${SESSIONS} parks an idle session`,
        value: parkedOne ? 'yes' : 'NO',
      },
      { measure: 'create p50 / p95, ms', value: `${round(figures.createMs.p50)} / ${round(figures.createMs.p95)}` },
      {
        measure: 'step p50 / p95 / max, ms',
        value: `${round(figures.stepMs.p50)} / ${round(figures.stepMs.p95)} / ${round(figures.stepMs.max)}`,
      },
      {
        measure: 'create phase, s / step phase, s / steps per s',
        value: `${round(createSeconds)} / ${round(stepPhaseSeconds)} / ${round(figures.stepsPerSecond, 2)}`,
      },
      {
        measure: 'relay PSS idle → peak, MiB',
        value: `${round(idle.relay)} → ${round(peak.relayMiB)}`,
      },
      {
        measure: 'Chromium PSS (all processes) idle → peak, MiB',
        value: `${round(idle.chromium)} → ${round(peak.chromiumMiB)}`,
      },
      { measure: 'per session at peak (both), MiB', value: round(figures.memoryMiB.perSessionAtPeak, 1) },
    ]);
    printTable(
      `After ${Math.ceil(SESSIONS / 2)} closes and ${Math.floor(SESSIONS / 2)} expiries (${IDLE_SECONDS} s idle; settled after ${round(expiryWaitS)} s)`,
      [
        { count: 'live sessions', before: 0, after: after.stats.sessions },
        { count: 'browser contexts (browser.contexts())', before: before.stats.contexts, after: after.stats.contexts },
        { count: 'pages (context.pages())', before: before.stats.pages, after: after.stats.pages },
        { count: 'Chromium renderer processes', before: before.renderers, after: after.renderers },
        {
          count: 'relay TCP sockets established / listening',
          before: `${before.sockets.tcpEstablished} / ${before.sockets.tcpListening}`,
          after: `${after.sockets.tcpEstablished} / ${after.sockets.tcpListening}`,
        },
        { count: 'relay file descriptors', before: before.sockets.fds, after: after.sockets.fds },
        {
          count: 'relay active handles that changed',
          before: '',
          after: handlesDiff(before.stats.handles, after.stats.handles),
        },
        { count: `verdict (no errors, nothing left over)`, before: '', after: pass ? 'PASS' : 'FAIL' },
      ],
    );
    if (errors.length) process.stdout.write(`errors (first 10):\n  ${errors.slice(0, 10).join('\n  ')}\n`);
    saveResults('load', figures);
    // CI runs a smaller load as a check: errors or anything left over fail it (never its timings).
    if (!pass) process.exitCode = 1;
  } finally {
    await relay.close();
    await site.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
