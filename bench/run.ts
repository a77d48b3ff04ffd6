/** `npm run bench`: every benchmark in turn; tables on stdout, figures in bench/results.json. */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// The relay injects the generated page runtime bundle, which is gitignored and may be stale or missing:
// rebuild it first. The benchmarks are imported only afterwards, since importing them loads the bundle.
execFileSync(process.execPath, [fileURLToPath(new URL('../shared/scripts/build-page-runtime.mjs', import.meta.url))], {
  stdio: 'inherit',
});

const { benchAgent } = await import('./agent');
const { benchCapacity } = await import('./capacity');
const { benchLoad } = await import('./load');
const { benchLocal } = await import('./local');
const { benchPageRuntime } = await import('./page-runtime');
const { benchPlanner } = await import('./planner');
const { benchPromptTokens } = await import('./prompt-tokens');
const { benchRetrieve } = await import('./retrieve');
const { benchRetrieveCorpus } = await import('./retrieve-corpus');
const { benchSessions } = await import('./sessions');
const { benchStore } = await import('./store');

const benches: Record<string, () => Promise<void>> = {
  sessions: benchSessions,
  pageRuntime: benchPageRuntime,
  agent: benchAgent,
  planner: benchPlanner,
  promptTokens: benchPromptTokens,
  retrieve: benchRetrieve,
  // Real pages need a corpus on disk (never downloaded): TANDEM_BENCH_ARTICLES=<Readability test-pages dir>.
  retrieveCorpus: async () => {
    const dir = process.env.TANDEM_BENCH_ARTICLES;
    if (dir) await benchRetrieveCorpus(dir);
    else
      process.stdout.write('\nretrieveCorpus skipped: set TANDEM_BENCH_ARTICLES to a Readability test-pages folder\n');
  },
  local: benchLocal,
  store: benchStore,
  load: benchLoad,
  capacity: benchCapacity,
};
// Bench names only: `--articles DIR` (and its value) is an option of promptTokens.
const only = process.argv.slice(2).filter((arg, i, all) => arg !== '--articles' && all[i - 1] !== '--articles');
for (const [name, bench] of Object.entries(benches)) {
  if (only.length && !only.includes(name)) continue;
  await bench();
}
process.stdout.write('\nFigures written to bench/results.json\n');
