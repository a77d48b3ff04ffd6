import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';

/** Executable names looked up on PATH, after the usual install locations. */
const PATH_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

/** The usual install locations, in order. */
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

function onPath(pathVariable: string | undefined): string | undefined {
  for (const dir of (pathVariable ?? '').split(delimiter).filter(Boolean)) {
    for (const name of PATH_NAMES) {
      const candidate = join(dir, name);
      if (existsSync(candidate)) return candidate;
    }
  }
  return undefined;
}

function fromPlaywrightCache(dir: string): string | undefined {
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

/** Where to look; tests replace the system's places with their own. */
export interface ChromiumPlaces {
  systemPaths: readonly string[];
  pathVariable: string | undefined;
  playwrightCache: string;
}

const defaultPlaces = (): ChromiumPlaces => ({
  systemPaths: SYSTEM_PATHS,
  pathVariable: process.env.PATH,
  playwrightCache: playwrightCacheDir(),
});

export class ChromiumNotFound extends Error {
  constructor(envPath: string | undefined, places: ChromiumPlaces) {
    super(
      envPath
        ? `CHROMIUM_PATH is set to ${envPath}, which does not exist. Point it at a Chromium or Chrome executable, or unset it to use the system's Chromium or Playwright's.`
        : [
            'No Chromium was found. Tandem looked in three places:',
            '  1. CHROMIUM_PATH (not set)',
            `  2. the system: ${places.systemPaths.slice(0, 4).join(', ')}, and ${PATH_NAMES.join('/')} on PATH`,
            `  3. Playwright's browser cache: ${places.playwrightCache}`,
            'Install one (Debian/Ubuntu: `apt-get install -y chromium`; or `npx playwright install chromium`) or set CHROMIUM_PATH to a Chromium/Chrome executable.',
          ].join('\n'),
    );
    this.name = 'ChromiumNotFound';
  }
}

/** Finds a Chromium executable: CHROMIUM_PATH, then the system (usual places, then PATH), then Playwright's cache. */
export function findChromium(
  envPath: string | undefined = process.env.CHROMIUM_PATH,
  places: ChromiumPlaces = defaultPlaces(),
): string {
  if (envPath) {
    if (existsSync(envPath)) return envPath;
    throw new ChromiumNotFound(envPath, places);
  }
  const found =
    places.systemPaths.find((p) => existsSync(p)) ??
    onPath(places.pathVariable) ??
    fromPlaywrightCache(places.playwrightCache);
  if (!found) throw new ChromiumNotFound(undefined, places);
  return found;
}
/**
 * Chromium keeps only the last `--disable-features` switch, and Playwright puts its own list before the
 * caller's args: ours carries Playwright's (as of 1.65) too, or it would silently re-enable them (HTTPS
 * upgrades of http:// pages, preconnects to www.google.com through a session's proxy, AI-mode checks).
 * relay/test/chromium-flags.test.ts reads a running browser's command line and fails when Playwright's
 * list holds a feature this one lacks.
 */
const DISABLED_FEATURES = [
  // Playwright's own.
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
  // Tandem's: no translate bar; form pages would otherwise make the browser ask Google about their fields.
  'Translate',
  'AutofillServerCommunication',
];

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
    `--disable-features=${DISABLED_FEATURES.join(',')}`,
    // WebRTC may not open UDP of its own: everything a page sends goes through the session's proxy.
    '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  ];
  // Chromium refuses to start its sandbox as root (containers, CI).
  if (process.getuid?.() === 0) args.push('--no-sandbox');
  return args;
}
