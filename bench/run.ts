/** `npm run bench`: every benchmark in turn; tables on stdout, figures in bench/results.json. */
import { benchAgent } from './agent';
import { benchLocal } from './local';
import { benchPageRuntime } from './page-runtime';
import { benchPlanner } from './planner';
import { benchRetrieve } from './retrieve';
import { benchSessions } from './sessions';

const benches: Record<string, () => Promise<void>> = {
  sessions: benchSessions,
  pageRuntime: benchPageRuntime,
  agent: benchAgent,
  planner: benchPlanner,
  retrieve: benchRetrieve,
  local: benchLocal,
};
const only = process.argv.slice(2);
for (const [name, bench] of Object.entries(benches)) {
  if (only.length && !only.includes(name)) continue;
  await bench();
}
process.stdout.write('\nFigures written to bench/results.json\n');
