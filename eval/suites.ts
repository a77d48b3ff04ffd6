/** Each suite end to end: pick its tasks, serve them, run them in parallel with progress, summarize. */
import { startFixtureSite } from '@tandem/e2e/fixtures';
import { findArticleCases, runArticle, serveArticles } from './articles';
import { type EvalOptions, selectNames } from './cli';
import { FIXTURE_TASKS, runFixtureTask } from './fixtures';
import { findMiniwobTasks, runEpisode, serveMiniwob } from './miniwob';
import { progressBar, runPool } from './pool';
import type { RelayClient } from './relay';
import { articleSummary, perTask, type Results, taskSummary } from './report';

/** How long a task page may take to report its instruction (page load on a busy machine included). */
const START_TIMEOUT_MS = 30_000;
/** How long a reward report may trail the browse answer (it is sent the moment the episode ends). */
const REWARD_GRACE_MS = 2_000;

function pick<T>(items: T[], name: (item: T) => string, options: EvalOptions, matched: Set<string>): T[] {
  const names = new Set(selectNames(items.map(name), options));
  for (const n of options.tasks ?? []) if (items.some((i) => name(i) === n)) matched.add(n);
  return items.filter((i) => names.has(name(i)));
}

export async function miniwobSuite(
  relay: RelayClient,
  dir: string,
  options: EvalOptions,
  matched: Set<string>,
): Promise<NonNullable<Results['miniwob']>> {
  const corpus = findMiniwobTasks(dir);
  const tasks = pick(corpus.tasks, (t) => t.name, options, matched);
  const jobs = tasks.flatMap((task) => options.seeds.map((seed) => ({ task, seed })));
  const server = await serveMiniwob(corpus, options.episodeSeconds * 1000);
  const progress = progressBar('miniwob', jobs.length);
  try {
    const episodes = await runPool(jobs, options.parallel, async ({ task, seed }) => {
      const result = await runEpisode(relay, server, task, seed, {
        maxSteps: options.maxSteps,
        mode: options.mode,
        startTimeoutMs: START_TIMEOUT_MS,
        rewardGraceMs: REWARD_GRACE_MS,
      });
      progress.done(`${task.name} #${seed}`, result.success);
      return result;
    });
    return { summary: taskSummary(episodes), tasks: perTask(episodes), episodes };
  } finally {
    progress.end();
    await server.close();
  }
}

export async function articleSuite(
  relay: RelayClient,
  dir: string,
  options: EvalOptions,
  matched: Set<string>,
): Promise<NonNullable<Results['articles']>> {
  const all = pick(findArticleCases(dir), (c) => c.name, options, matched);
  const cases = all.filter((c) => c.readerable);
  const server = await serveArticles(cases);
  const progress = progressBar('articles', cases.length);
  try {
    const pages = await runPool(cases, options.parallel, async (item) => {
      const result = await runArticle(relay, server, item, { mode: options.mode });
      progress.done(item.name, !result.error && result.title.ok && result.byline.ok);
      return result;
    });
    return { summary: articleSummary(pages), skipped: all.filter((c) => !c.readerable).map((c) => c.name), pages };
  } finally {
    progress.end();
    await server.close();
  }
}

export async function fixtureSuite(
  relay: RelayClient,
  options: EvalOptions,
  matched: Set<string>,
): Promise<NonNullable<Results['fixtures']>> {
  const tasks = pick(FIXTURE_TASKS, (t) => t.name, options, matched);
  const site = await startFixtureSite();
  const progress = progressBar('fixtures', tasks.length);
  try {
    const results = await runPool(tasks, options.parallel, async (task) => {
      const result = await runFixtureTask(relay, site, task, { mode: options.mode });
      progress.done(task.name, result.success);
      return result;
    });
    return { summary: taskSummary(results), tasks: results };
  } finally {
    progress.end();
    await site.close();
  }
}
