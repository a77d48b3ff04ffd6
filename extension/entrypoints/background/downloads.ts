import type { PageEventWire } from '@tandem/shared';
import { type Browser, browser } from 'wxt/browser';
import { keep, sessionTabIds } from './page-events';

type DownloadItem = Browser.downloads.DownloadItem;

/**
 * Downloads in local sessions (DESIGN §6 "Page events"): the remote driver refuses every download, and
 * a local session must not fill the user's Downloads folder either. Chrome's downloads API does not say
 * which tab started a download, so one is a session tab's when it comes from where that tab was just
 * sent (a link or form that answered with an attachment) or names that tab's page as its referrer (an
 * `<a download>`). Downloads of the user's own tabs match neither and are left alone.
 */

/** Where each session tab's top frame was last sent: a download from that URL is that tab's. */
const lastNavigation = new Map<number, string>();
/** The URL each tab's last refused download came from: its navigation event may come after the download's. */
const refusedFrom = new Map<number, string>();
/** When each session tab was last given an action: of two tabs on the referrer page, the one just acted in started it. */
const lastActed = new Map<number, number>();
/** Who waits to hear that a tab's navigation became a download (so it stops waiting for a load). */
const waiters = new Map<number, Set<() => void>>();

function withoutHash(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.hash = '';
    return parsed.href;
  } catch {
    return url;
  }
}

/** Notes that the relay is acting in the tab now (an `<a download>` it clicks names only the page, not the tab). */
export function noteAction(tabId: number): void {
  lastActed.set(tabId, Date.now());
  refusedFrom.delete(tabId);
}

/** Calls `fn` when a download the tab started is refused; returns the unsubscribe. */
export function onDownloadRefused(tabId: number, fn: () => void): () => void {
  const set = waiters.get(tabId) ?? new Set();
  set.add(fn);
  waiters.set(tabId, set);
  return () => set.delete(fn);
}

async function sessionTabOf(item: DownloadItem): Promise<number | undefined> {
  const sources = new Set([item.url, item.finalUrl].filter((u): u is string => !!u).map(withoutHash));
  const referrer = item.referrer ? withoutHash(item.referrer) : undefined;
  // Every session tab that was sent to the download's URL or shows the page that names itself its
  // referrer; the browser's events may come in either order, so of several the one acted in last wins.
  let best: number | undefined;
  for (const id of await sessionTabIds()) {
    const sent = lastNavigation.get(id);
    let matches = sent !== undefined && sources.has(sent);
    if (!matches && referrer) {
      const tab = await browser.tabs.get(id).catch(() => undefined);
      matches = !!tab?.url && withoutHash(tab.url) === referrer;
    }
    if (matches && (best === undefined || (lastActed.get(id) ?? 0) > (lastActed.get(best) ?? 0))) best = id;
  }
  // Used up: the user's own later download of the same URL is not the session's.
  if (best !== undefined) {
    lastNavigation.delete(best);
    refusedFrom.set(best, withoutHash(item.finalUrl || item.url));
  }
  return best;
}

/** A name for the download the agent can relate to: the file's own name when known, else its URL. */
function described(item: DownloadItem): string {
  const file = item.filename.split(/[\\/]/).pop();
  if (file) return file;
  const url = item.finalUrl || item.url;
  return url.startsWith('data:') ? url.slice(0, url.indexOf(',') + 1 || 40) : url.slice(0, 500);
}

async function refuse(item: DownloadItem): Promise<void> {
  const tabId = await sessionTabOf(item);
  if (tabId === undefined) return;
  await browser.downloads.cancel(item.id).catch(() => undefined);
  // Small files may already be complete by now: the file goes, so nothing of the session's is left.
  const [now] = await browser.downloads.search({ id: item.id }).catch(() => []);
  if (now?.state === 'complete') await browser.downloads.removeFile(item.id).catch(() => undefined);
  await browser.downloads.erase({ id: item.id }).catch(() => undefined);
  const event: PageEventWire = { kind: 'download_refused', file: described(item).slice(0, 500) };
  keep(tabId, [event]);
  for (const fn of waiters.get(tabId) ?? []) fn();
}

/** Listeners go on synchronously at start, so the events that woke the worker are delivered. */
export function watchDownloads(): void {
  browser.webNavigation.onBeforeNavigate.addListener((details) => {
    if (details.frameId !== 0) return;
    const url = withoutHash(details.url);
    if (refusedFrom.get(details.tabId) === url) refusedFrom.delete(details.tabId);
    else lastNavigation.set(details.tabId, url);
  });
  // A navigation that committed a page was no download.
  browser.webNavigation.onCommitted.addListener((details) => {
    if (details.frameId === 0) lastNavigation.delete(details.tabId);
  });
  browser.downloads.onCreated.addListener((item) => void refuse(item));
  browser.tabs.onRemoved.addListener((tabId) => {
    lastNavigation.delete(tabId);
    lastActed.delete(tabId);
    refusedFrom.delete(tabId);
    waiters.delete(tabId);
  });
}
