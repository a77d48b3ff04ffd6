/**
 * `npm run eval`: the quality harness. It measures a relay through its public HTTP API on task suites
 * and page corpora given by path (nothing is downloaded), prints tables and writes JSON for comparing runs.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type EvalOptions, parseOptions, USAGE, UsageError } from './cli';
import type { RelayClient } from './relay';
import type { Results } from './report';

async function main(): Promise<number> {
  let options: EvalOptions;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`eval: ${error.message}\n\n${USAGE}\n`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const old = options.compare ? (JSON.parse(readFileSync(options.compare, 'utf8')) as Results) : undefined;

  if (!options.relay) {
    // The relay injects the generated page runtime bundle: rebuild it so the sources are what is measured.
    execFileSync(
      process.execPath,
      [fileURLToPath(new URL('../shared/scripts/build-page-runtime.mjs', import.meta.url))],
      {
        stdio: 'ignore',
      },
    );
  }
  // Imported only now: importing the relay loads the bundle built above.
  const { remoteRelay, startLocalRelay } = await import('./relay');
  const suites = await import('./suites');
  const report = await import('./report');

  const relay: RelayClient = options.relay
    ? remoteRelay(options.relay.url, options.relay.key)
    : await startLocalRelay({ maxSessions: options.parallel + 2, logFile: options.log });
  const results: Results = {
    tool: 'tandem-eval',
    version: 1,
    startedAt: new Date().toISOString(),
    finishedAt: '',
    relay: relay.describe,
    options: { ...options, relay: options.relay?.url },
  };
  process.stdout.write(`Evaluating ${relay.describe}${options.mode ? `, mode ${options.mode}` : ''}\n`);
  try {
    const matched = new Set<string>();
    if (options.miniwob) results.miniwob = await suites.miniwobSuite(relay, options.miniwob, options, matched);
    if (options.articles) results.articles = await suites.articleSuite(relay, options.articles, options, matched);
    if (options.fixtures) results.fixtures = await suites.fixtureSuite(relay, options, matched);
    const unknown = (options.tasks ?? []).filter((t) => !matched.has(t));
    if (unknown.length > 0) process.stderr.write(`eval: no task or case named ${unknown.join(', ')}\n`);
  } finally {
    await relay.close();
  }
  results.finishedAt = new Date().toISOString();

  if (results.miniwob) report.printMiniwob(results.miniwob);
  if (results.articles) report.printArticles(results.articles);
  if (results.fixtures) report.printFixtures(results.fixtures);
  if (old) report.printComparison(results, old);
  if (options.out) {
    writeFileSync(options.out, `${JSON.stringify(results, null, 2)}\n`);
    process.stdout.write(`\nResults written to ${options.out}\n`);
  }
  return failing(results, options);
}

/** 1 when a task suite's success rate is below --fail-under. */
function failing(results: Results, options: EvalOptions): number {
  if (options.failUnder === undefined) return 0;
  const below = (
    [
      ['MiniWoB++', results.miniwob?.summary],
      ['fixture', results.fixtures?.summary],
    ] as const
  ).filter(([, s]) => s && (s.runs === 0 || 100 * s.successRate < (options.failUnder ?? 0)));
  for (const [name, s] of below) {
    process.stderr.write(
      `eval: the ${name} suite's success rate is ${s ? (100 * s.successRate).toFixed(1) : 0}% (${s?.success}/${s?.runs}), below --fail-under ${options.failUnder}%\n`,
    );
  }
  return below.length > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`eval: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
