// `npm test`: every vitest test, then the extension build and the Playwright e2e tests; one summary line.
// Every suite runs even when an earlier one fails, so one run shows everything that is broken.
// The fixture tasks are not run again through `npm run eval -- --fixtures`: vitest runs each of them with the
// same checks (relay/test/builtin-tasks.test.ts, retrieve-cases.test.ts), and eval/harness.test.ts runs the
// eval's fixture suite itself. Twice cost CI three and a half minutes and found nothing once did not.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

const OUT = '.ci/out';
mkdirSync(OUT, { recursive: true });
const vitestReport = `${OUT}/vitest.json`;
const e2eReport = 'e2e/test-results/results.json';
for (const file of [vitestReport, e2eReport]) rmSync(file, { force: true });

const run = (cmd, args) => spawnSync(cmd, args, { stdio: 'inherit', shell: false }).status ?? 1;
const npx = (args) => run(process.platform === 'win32' ? 'npx.cmd' : 'npx', args);

// The relay injects the generated page-runtime bundle: rebuild it so no test runs an older runtime than
// the sources (postinstall builds it once; edits since would otherwise go untested).
const bundleStatus = run(process.execPath, ['shared/scripts/build-page-runtime.mjs']);
const unitStatus = npx(['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestReport}`]);
const buildStatus = run(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build:extension']);
const e2eStatus =
  buildStatus === 0 ? run(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['test', '-w', '@tandem/e2e']) : 1;

const read = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined);
let passed = 0;
let failed = 0;
let skipped = 0;
const unit = read(vitestReport);
if (unit) {
  passed += unit.numPassedTests;
  failed += unit.numFailedTests;
  skipped += unit.numPendingTests + unit.numTodoTests;
} else failed += 1; // the runner crashed before reporting
const e2e = read(e2eReport);
if (e2e) {
  passed += e2e.stats.expected + e2e.stats.flaky;
  failed += e2e.stats.unexpected;
  skipped += e2e.stats.skipped;
} else failed += 1;

const ok = bundleStatus === 0 && unitStatus === 0 && e2eStatus === 0 && failed === 0;
const summary = `tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`;
writeFileSync(`${OUT}/summary.txt`, `${summary}\n`);
process.stdout.write(`\n${summary}\n`);
process.exit(ok ? 0 : 1);
