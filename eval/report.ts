/** Results: per-suite summaries, the printed tables, and the deltas against an earlier run. */
import { percentile, printTable, round } from '../bench/stats';
import type { ArticleResult } from './articles';
import type { FixtureResult } from './fixtures';
import type { EpisodeResult } from './miniwob';
import { meanAndP25 } from './text';

export interface TaskSummary {
  runs: number;
  success: number;
  successRate: number;
  meanSteps: number;
  meanSeconds: number;
}

export interface ArticleSummary {
  pages: number;
  titleAccuracy: number;
  bylineAccuracy: number;
  f1Mean: number;
  f1P25: number;
  /** Retrieve with fields on a new session (load + extraction), per page. */
  msMean: number;
  msP50: number;
  errors: number;
}

export interface Results {
  tool: 'tandem-eval';
  version: 1;
  startedAt: string;
  finishedAt: string;
  relay: string;
  options: Record<string, unknown>;
  miniwob?: { summary: TaskSummary; tasks: Record<string, TaskSummary>; episodes: EpisodeResult[] };
  articles?: { summary: ArticleSummary; skipped: string[]; pages: ArticleResult[] };
  fixtures?: { summary: TaskSummary; tasks: FixtureResult[] };
}

const mean = (values: number[]) => (values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length);

export function taskSummary(runs: { success: boolean; steps: number; ms: number }[]): TaskSummary {
  const success = runs.filter((r) => r.success).length;
  return {
    runs: runs.length,
    success,
    successRate: runs.length === 0 ? 0 : success / runs.length,
    meanSteps: mean(runs.map((r) => r.steps)),
    meanSeconds: mean(runs.map((r) => r.ms)) / 1000,
  };
}

export function perTask(episodes: EpisodeResult[]): Record<string, TaskSummary> {
  const by = new Map<string, EpisodeResult[]>();
  for (const e of episodes) by.set(e.task, [...(by.get(e.task) ?? []), e]);
  return Object.fromEntries([...by].map(([task, runs]) => [task, taskSummary(runs)]));
}

export function articleSummary(pages: ArticleResult[]): ArticleSummary {
  const n = Math.max(1, pages.length);
  const f1 = meanAndP25(pages.map((p) => p.f1));
  const ms = pages.filter((p) => !p.error).map((p) => p.ms);
  return {
    pages: pages.length,
    titleAccuracy: pages.filter((p) => p.title.ok).length / n,
    bylineAccuracy: pages.filter((p) => p.byline.ok).length / n,
    f1Mean: f1.mean,
    f1P25: f1.p25,
    msMean: mean(ms),
    msP50: ms.length ? percentile(ms, 50) : 0,
    errors: pages.filter((p) => p.error).length,
  };
}

const pct = (rate: number) => `${round(100 * rate)}%`;
const clip = (value: unknown, width = 40) => {
  const text = value === null || value === undefined ? '∅' : String(value).replace(/\s+/g, ' ');
  return text.length > width ? `${text.slice(0, width - 1)}…` : text;
};

export function printMiniwob(results: NonNullable<Results['miniwob']>): void {
  const rows = Object.entries(results.tasks).map(([task, s]) => ({
    task,
    success: `${s.success}/${s.runs}`,
    rate: pct(s.successRate),
    steps: round(s.meanSteps, 1),
    seconds: round(s.meanSeconds, 1),
  }));
  const t = results.summary;
  rows.push({
    task: 'TOTAL',
    success: `${t.success}/${t.runs}`,
    rate: pct(t.successRate),
    steps: round(t.meanSteps, 1),
    seconds: round(t.meanSeconds, 1),
  });
  printTable('MiniWoB++ episodes (success = raw reward 1; steps and seconds are means per episode)', rows);
  const failed = results.episodes.filter((e) => !e.success);
  if (failed.length > 0) {
    printTable(
      'Failed episodes',
      failed.map((e) => ({
        task: e.task,
        seed: e.seed,
        reward: e.reward ?? '∅',
        status: e.status || '-',
        why: clip(e.error ?? e.reason ?? '', 30),
        message: clip(e.message, 60),
      })),
    );
  }
}

export function printArticles(results: NonNullable<Results['articles']>): void {
  const rows = results.pages.map((p) => ({
    case: p.case,
    title: p.title.ok ? 'ok' : 'MISS',
    byline: p.byline.ok ? 'ok' : 'MISS',
    f1: round(p.f1, 3),
    ms: round(p.ms),
    note: p.error
      ? clip(p.error, 50)
      : !p.title.ok
        ? `title ${clip(p.title.got, 45)}`
        : !p.byline.ok
          ? `byline ${clip(p.byline.got, 30)} ≠ ${clip(p.byline.expected, 30)}`
          : '',
  }));
  printTable(
    'Articles (title/byline: word F1 >= 0.8 after normalization; f1: Markdown token F1 vs expected.html)',
    rows,
  );
  const s = results.summary;
  printTable(
    `Articles: totals over ${s.pages} pages${results.skipped.length ? ` (${results.skipped.length} not readerable, skipped)` : ''}`,
    [
      {
        title: pct(s.titleAccuracy),
        byline: pct(s.bylineAccuracy),
        f1_mean: round(s.f1Mean, 3),
        f1_p25: round(s.f1P25, 3),
        ms_mean: round(s.msMean),
        ms_p50: round(s.msP50),
        errors: s.errors,
      },
    ],
  );
}

export function printFixtures(results: NonNullable<Results['fixtures']>): void {
  const s = results.summary;
  const failed = results.tasks.filter((t) => !t.success);
  if (failed.length > 0) {
    printTable(
      'Failed fixture tasks',
      failed.map((t) => ({
        task: clip(t.task, 50),
        expected: t.expected,
        got: t.status || '-',
        message: clip(t.error ?? t.message, 70),
      })),
    );
  }
  printTable('Fixture tasks (through POST /v1/web/browse)', [
    {
      tasks: s.runs,
      passed: s.success,
      rate: pct(s.successRate),
      steps: round(s.meanSteps, 1),
      seconds: round(s.meanSeconds, 2),
    },
  ]);
}

const delta = (now: number, before: number | undefined, digits = 1, scale = 1) =>
  before === undefined
    ? `${round(now * scale, digits)}`
    : `${round(before * scale, digits)} → ${round(now * scale, digits)} (${now >= before ? '+' : ''}${round((now - before) * scale, digits)})`;

/** Prints what changed since `old` (an earlier --out file), suite by suite. */
export function printComparison(now: Results, old: Results): void {
  if (now.miniwob && old.miniwob) {
    const rows = [];
    for (const [task, s] of Object.entries(now.miniwob.tasks)) {
      const before = old.miniwob.tasks[task];
      if (!before || Math.abs(before.successRate - s.successRate) > 1e-9) {
        rows.push({
          task,
          success: delta(s.successRate, before?.successRate, 1, 100),
          steps: delta(s.meanSteps, before?.meanSteps),
        });
      }
    }
    rows.push({
      task: 'TOTAL',
      success: delta(now.miniwob.summary.successRate, old.miniwob.summary.successRate, 1, 100),
      steps: delta(now.miniwob.summary.meanSteps, old.miniwob.summary.meanSteps),
    });
    printTable(`MiniWoB++ compared with ${old.startedAt} (success %, tasks that changed)`, rows);
  }
  if (now.articles && old.articles) {
    const a = now.articles.summary;
    const b = old.articles.summary;
    printTable(`Articles compared with ${old.startedAt}`, [
      { measure: 'title %', value: delta(a.titleAccuracy, b.titleAccuracy, 1, 100) },
      { measure: 'byline %', value: delta(a.bylineAccuracy, b.bylineAccuracy, 1, 100) },
      { measure: 'F1 mean', value: delta(a.f1Mean, b.f1Mean, 3) },
      { measure: 'F1 p25', value: delta(a.f1P25, b.f1P25, 3) },
      { measure: 'ms per page (mean)', value: delta(a.msMean, b.msMean, 0) },
    ]);
    const before = new Map(old.articles.pages.map((p) => [p.case, p]));
    const changed = now.articles.pages.flatMap((p) => {
      const o = before.get(p.case);
      if (!o) return [];
      const moved = o.title.ok !== p.title.ok || o.byline.ok !== p.byline.ok || Math.abs(o.f1 - p.f1) >= 0.02;
      return moved
        ? [
            {
              case: p.case,
              title: `${o.title.ok ? 'ok' : 'MISS'} → ${p.title.ok ? 'ok' : 'MISS'}`,
              byline: `${o.byline.ok ? 'ok' : 'MISS'} → ${p.byline.ok ? 'ok' : 'MISS'}`,
              f1: delta(p.f1, o.f1, 3),
            },
          ]
        : [];
    });
    if (changed.length > 0) printTable('Article pages that changed', changed);
  }
  if (now.fixtures && old.fixtures) {
    const before = new Map(old.fixtures.tasks.map((t) => [t.task, t.success]));
    const flipped = now.fixtures.tasks.filter((t) => before.has(t.task) && before.get(t.task) !== t.success);
    printTable(`Fixture tasks compared with ${old.startedAt}`, [
      {
        measure: 'success %',
        value: delta(now.fixtures.summary.successRate, old.fixtures.summary.successRate, 1, 100),
      },
      ...flipped.map((t) => ({ measure: clip(t.task, 50), value: t.success ? 'now passes' : 'now fails' })),
    ]);
  }
}
