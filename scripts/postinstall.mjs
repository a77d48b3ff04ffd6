// Runs after `npm install`: builds generated sources, then makes sure a Chromium exists.
// Never fails the install for a missing browser; it says how to get one instead.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const run = (cmd, args, options = {}) => spawnSync(cmd, args, { stdio: 'inherit', ...options });

if (existsSync('shared/scripts/build-page-runtime.mjs')) {
  const build = run(process.execPath, ['shared/scripts/build-page-runtime.mjs']);
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const check = () =>
  run(process.execPath, ['--import', 'tsx', 'scripts/ensure-chromium.ts'], { stdio: 'pipe', encoding: 'utf8' });
let found = check();
if (found.status === 0) {
  process.stdout.write(`tandem: using Chromium at ${found.stdout.trim()}\n`);
  process.exit(0);
}
if (process.env.TANDEM_BROWSER_WS_ENDPOINT) {
  process.stdout.write('tandem: TANDEM_BROWSER_WS_ENDPOINT is set; no local Chromium is needed.\n');
  process.exit(0);
}
if (process.env.CHROMIUM_PATH) {
  // A wrong path is the user's choice to fix; downloading another browser would hide it.
  process.stdout.write(
    `tandem: ${found.stderr.trim()}\nTandem still installed; fix CHROMIUM_PATH before \`npm start\`.\n`,
  );
  process.exit(0);
}
process.stdout.write("tandem: no Chromium found; trying Playwright's browser installer...\n");
const install = run(process.execPath, ['node_modules/playwright-core/cli.js', 'install', 'chromium'], {
  timeout: 300_000,
});
found = check();
if (install.status === 0 && found.status === 0) {
  process.stdout.write(`tandem: using Chromium at ${found.stdout.trim()}\n`);
} else {
  process.stdout.write(
    [
      '',
      'tandem: no Chromium is available and it could not be downloaded (is this machine offline?).',
      'Tandem still installed. Before `npm start`, do one of:',
      '  - Debian/Ubuntu: sudo apt-get install -y chromium',
      '  - macOS: install Google Chrome or Chromium',
      '  - set CHROMIUM_PATH to a Chromium or Chrome executable',
      '  - or run a Playwright browser server elsewhere and set TANDEM_BROWSER_WS_ENDPOINT',
      '',
    ].join('\n'),
  );
}
