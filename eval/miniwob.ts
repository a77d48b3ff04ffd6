/**
 * Suite (a): MiniWoB++-format tasks. The folder is served on loopback; each episode gets its own
 * path prefix (`/e/<id>/…`), and its task page a starter script that seeds `Math.seedrandom`, raises
 * `core.EPISODE_MAX_TIME`, starts the episode and reports the instruction and the reward back here.
 * The harness then browses with the page's own instruction as `cmd`, like any client.
 */
import { existsSync, readdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { RelayClient } from './relay';
import { type CorpusServer, contentType, readJson, readUnder, startServer } from './server';

export interface MiniwobTask {
  name: string;
  /** Path of the task page under the served root, e.g. "miniwob/click-button.html". */
  path: string;
}

export interface MiniwobCorpus {
  root: string;
  tasks: MiniwobTask[];
}

/**
 * The tasks of a MiniWoB++-format folder: either the `html/` folder (tasks in `miniwob/`, scripts in
 * `core/`) or the task folder itself (scripts in `../core/`).
 */
export function findMiniwobTasks(dir: string): MiniwobCorpus {
  const given = resolve(dir);
  const asRoot = existsSync(join(given, 'core', 'core.js')) && existsSync(join(given, 'miniwob'));
  const asTasks = existsSync(join(given, '..', 'core', 'core.js'));
  if (!asRoot && !asTasks) {
    throw new Error(
      `${dir} is not a MiniWoB++ folder: expected core/core.js and miniwob/*.html in it (the "miniwob/html" folder of github.com/Farama-Foundation/miniwob-plusplus), or a task folder beside core/.`,
    );
  }
  const root = asRoot ? given : resolve(given, '..');
  const taskDir = asRoot ? join(given, 'miniwob') : given;
  const prefix = basename(taskDir);
  const tasks = readdirSync(taskDir)
    .filter((f) => f.endsWith('.html'))
    .sort()
    .map((f) => ({ name: f.slice(0, -'.html'.length), path: `${prefix}/${f}` }));
  return { root, tasks };
}

/** What the starter script reports. */
type Report =
  | { kind: 'start'; episode: string; utterance: string }
  | { kind: 'end'; episode: string; done: boolean; raw: number; reward: number; reason: string | null }
  | { kind: 'error'; episode: string; message: string };

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

interface Episode {
  task: MiniwobTask;
  seed: string;
  started: ReturnType<typeof deferred<Report>>;
  ended: ReturnType<typeof deferred<Report & { kind: 'end' }>>;
}

/** The starter: runs after the page's own load handlers (which show MiniWoB's start overlay). */
function starterScript(episode: string, seed: string, maxMs: number): string {
  const config = JSON.stringify({ episode, seed, maxMs });
  return `<script>(function () {
  var cfg = ${config.replace(/</g, '\\u003c')};
  function report(kind, body) {
    body.kind = kind; body.episode = cfg.episode;
    fetch('/__eval/report', { method: 'POST', keepalive: true, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  }
  var begun = false;
  function begin() {
    if (begun) return; begun = true;
    if (typeof core === 'undefined' || typeof core.startEpisodeReal !== 'function') { report('error', { message: 'the page has no MiniWoB core (core.startEpisodeReal)' }); return; }
    if (typeof Math.seedrandom === 'function') Math.seedrandom(cfg.seed);
    core.EPISODE_MAX_TIME = cfg.maxMs;
    var end = core.endEpisode;
    core.endEpisode = function () {
      var running = core.EP_TIMER !== null;
      var result = end.apply(this, arguments);
      if (running) report('end', { done: WOB_DONE_GLOBAL === true, raw: Number(WOB_RAW_REWARD_GLOBAL), reward: Number(WOB_REWARD_GLOBAL), reason: WOB_REWARD_REASON == null ? null : String(WOB_REWARD_REASON) });
      return result;
    };
    try { core.startEpisodeReal(); } catch (e) { report('error', { message: 'starting the episode failed: ' + e }); return; }
    var tries = 0;
    (function utter() {
      var text = core.getUtterance();
      // Natural-language tasks give {utterance, fields}: the words are what a user would send.
      if (text && typeof text === 'object') text = text.utterance;
      if (text || tries++ > 40) report('start', { utterance: text }); else setTimeout(utter, 50);
    })();
  }
  if (document.readyState === 'complete') setTimeout(begin, 0);
  else window.addEventListener('load', function () { setTimeout(begin, 0); });
})();</script>`;
}

function inject(html: string, script: string): string {
  const at = html.toLowerCase().lastIndexOf('</body>');
  return at < 0 ? html + script : html.slice(0, at) + script + html.slice(at);
}

export interface MiniwobServer extends CorpusServer {
  /** Registers an episode; its task page is served at the returned URL. */
  episode(task: MiniwobTask, seed: string): { url: string; state: Episode };
}

export async function serveMiniwob(corpus: MiniwobCorpus, episodeMs: number): Promise<MiniwobServer> {
  const episodes = new Map<string, Episode>();
  let next = 0;
  const server = await startServer(async (url, req, res) => {
    if (url.pathname === '/__eval/report' && req.method === 'POST') {
      const report = (await readJson(req)) as Report | undefined;
      const episode = report && episodes.get(String(report.episode));
      if (episode && report.kind === 'end') episode.ended.resolve(report);
      else if (episode) episode.started.resolve(report);
      res.writeHead(204).end();
      return true;
    }
    const match = /^\/e\/(\d+)\/(.*)$/.exec(url.pathname);
    if (!match) return false;
    const episode = episodes.get(match[1] ?? '');
    const file = await readUnder(corpus.root, match[2] ?? '');
    if (!episode || !file) return false;
    let body: Buffer | string = file.body;
    if (match[2] === episode.task.path)
      body = inject(file.body.toString('utf8'), starterScript(match[1]!, episode.seed, episodeMs));
    res.writeHead(200, { 'content-type': contentType(file.path), 'cache-control': 'no-store' });
    res.end(body);
    return true;
  });
  return {
    ...server,
    episode(task, seed) {
      const id = String(next++);
      const state: Episode = { task, seed, started: deferred(), ended: deferred() };
      episodes.set(id, state);
      return { url: `${server.origin}/e/${id}/${task.path}`, state };
    },
  };
}

export interface EpisodeResult {
  task: string;
  seed: string;
  /** Raw reward 1. */
  success: boolean;
  /** The raw reward when the episode ended, else null. */
  reward: number | null;
  reason: string | null;
  instruction: string;
  status: string;
  message: string;
  steps: number;
  /** Wall time of the browse call. */
  ms: number;
  error?: string;
}

export interface EpisodeOptions {
  maxSteps: number;
  mode?: string | undefined;
  /** How long the task page may take to report its instruction. */
  startTimeoutMs: number;
  /** How long a reward may take to arrive after browse returned (its report is sent as the episode ends). */
  rewardGraceMs: number;
}

const timeout = <T>(promise: Promise<T>, ms: number): Promise<T | undefined> =>
  Promise.race([promise, new Promise<undefined>((done) => setTimeout(() => done(undefined), ms).unref())]);

/** One episode: open the task page, read its instruction, browse with it, read the reward. */
export async function runEpisode(
  relay: RelayClient,
  server: MiniwobServer,
  task: MiniwobTask,
  seed: string,
  options: EpisodeOptions,
): Promise<EpisodeResult> {
  const { url, state } = server.episode(task, seed);
  const result: EpisodeResult = {
    task: task.name,
    seed,
    success: false,
    reward: null,
    reason: null,
    instruction: '',
    status: '',
    message: '',
    steps: 0,
    ms: 0,
  };
  let sessionId: string | undefined;
  try {
    const opened = await relay.call<{ session_id: string }>('POST', '/v1/web/session', { url });
    sessionId = opened.session_id;
    const started = await timeout(state.started.promise, options.startTimeoutMs);
    if (!started) throw new Error(`the task page did not report its instruction within ${options.startTimeoutMs} ms`);
    if (started.kind === 'error') throw new Error(started.message);
    if (started.kind !== 'start') throw new Error('the task page reported an end before a start');
    result.instruction = started.utterance;
    const t = performance.now();
    const run = await relay.call<{ status: string; message: string; metadata?: { step_count?: number } }>(
      'POST',
      '/v1/web/browse',
      {
        cmd: started.utterance,
        session_id: sessionId,
        max_steps: options.maxSteps,
        ...(options.mode ? { mode: options.mode } : {}),
      },
    );
    result.ms = performance.now() - t;
    result.status = run.status;
    result.message = run.message;
    result.steps = run.metadata?.step_count ?? 0;
    // The page reports the reward as the action ends the episode; give the report a moment to arrive.
    const ended = await timeout(state.ended.promise, options.rewardGraceMs);
    if (ended) {
      result.reward = ended.raw;
      result.reason = ended.reason;
      result.success = ended.raw === 1;
    } else {
      result.reason = 'episode not finished';
    }
  } catch (error) {
    result.error = (error as Error).message;
  } finally {
    if (sessionId) await relay.call('DELETE', `/v1/web/session/${sessionId}`).catch(() => undefined);
  }
  return result;
}
