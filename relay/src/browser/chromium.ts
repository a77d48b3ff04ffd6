import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Where we looked, in order, for the error message when nothing was found. */
const SYSTEM_PATHS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/lib/chromium/chromium',
  '/snap/bin/chromium',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
];

function playwrightCacheDir(): string {
  if (process.env.PLAYWRIGHT_BROWSERS_PATH) return process.env.PLAYWRIGHT_BROWSERS_PATH;
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Caches', 'ms-playwright');
  if (process.platform === 'win32') return join(process.env.LOCALAPPDATA ?? homedir(), 'ms-playwright');
  return join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'ms-playwright');
}

function fromPlaywrightCache(): string | undefined {
  const dir = playwrightCacheDir();
  if (!existsSync(dir)) return undefined;
  const builds = readdirSync(dir)
    .filter((name) => /^chromium-\d+$/.test(name))
    .sort((a, b) => Number(b.split('-')[1]) - Number(a.split('-')[1]));
  for (const build of builds) {
    for (const rel of [
      'chrome-linux64/chrome',
      'chrome-linux/chrome',
      'chrome-mac/Chromium.app/Contents/MacOS/Chromium',
      'chrome-mac-arm64/Chromium.app/Contents/MacOS/Chromium',
      'chrome-win/chrome.exe',
      'chrome-win64/chrome.exe',
    ]) {
      const candidate = join(dir, build, rel);
      if (existsSync(candidate)) return candidate;
    }
  }
  return undefined;
}

export class ChromiumNotFound extends Error {
  constructor(envPath: string | undefined) {
    super(
      [
        'No Chromium was found. Tandem looked in three places:',
        `  1. CHROMIUM_PATH ${envPath ? `(${envPath} does not exist)` : '(not set)'}`,
        `  2. the system: ${SYSTEM_PATHS.slice(0, 4).join(', ')}`,
        `  3. Playwright's browser cache: ${playwrightCacheDir()}`,
        'Install one (Debian/Ubuntu: `apt-get install -y chromium`; or `npx playwright install chromium`) or set CHROMIUM_PATH to a Chromium/Chrome executable.',
      ].join('\n'),
    );
    this.name = 'ChromiumNotFound';
  }
}

/** Finds a Chromium executable: CHROMIUM_PATH, then the system, then Playwright's cache. */
export function findChromium(envPath: string | undefined = process.env.CHROMIUM_PATH): string {
  if (envPath) {
    if (existsSync(envPath)) return envPath;
    throw new ChromiumNotFound(envPath);
  }
  const found = SYSTEM_PATHS.find((p) => existsSync(p)) ?? fromPlaywrightCache();
  if (!found) throw new ChromiumNotFound(undefined);
  return found;
}

/**
 * Flags for every Chromium Tandem launches. The background-networking group keeps a headless browser
 * from calling home (on closed networks those calls fail by the hundred and slow everything).
 */
export function chromiumArgs(): string[] {
  const args = [
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-default-apps',
    '--disable-dev-shm-usage',
    '--disable-features=Translate,MediaRouter,OptimizationHints',
  ];
  // Chromium refuses to start its sandbox as root (containers, CI).
  if (process.getuid?.() === 0) args.push('--no-sandbox');
  return args;
}
