import type { CommandParams, CommandResult, TabState } from '@tandem/shared';
import { browser } from 'wxt/browser';
import { sessionTabs } from '@/utils/storage';
import { CommandFailure } from './errors';
import { watchLoad } from './navigation';
import { expectSessionTab } from './page-events';
import { assertAllowed } from './restricted';
import { updateSessionTabs } from './session-tabs';

/** The session tab, or `tab_closed` when it is gone or is not one of ours. */
export async function sessionTab(tabId: number) {
  const known = (await sessionTabs.getValue()).some((t) => t.tabId === tabId);
  const tab = known ? await browser.tabs.get(tabId).catch(() => undefined) : undefined;
  if (!tab) throw new CommandFailure('tab_closed', 'The session tab was closed in the browser.');
  return tab;
}

export async function tabState(tabId: number): Promise<TabState> {
  const tab = await sessionTab(tabId);
  const status = await documentStatus(tabId);
  return { tabId, url: tab.url ?? '', title: tab.title ?? '', ...(status !== undefined ? { status } : {}) };
}

/**
 * The HTTP status of the tab's document, from its navigation timing entry (`responseStatus`, Chrome
 * 109+): the tabs API does not say whether the page that loaded is a 404. Undefined where the page
 * cannot be scripted (the browser's own error pages) or reports none.
 */
export async function documentStatus(tabId: number): Promise<number | undefined> {
  try {
    const [result] = await browser.scripting.executeScript({
      target: { tabId },
      func: () => {
        const [entry] = performance.getEntriesByType('navigation') as (PerformanceEntry & {
          responseStatus?: number;
        })[];
        return entry?.responseStatus ?? 0;
      },
    });
    const status = result?.result;
    return typeof status === 'number' && status > 0 ? status : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Runs a navigation and waits (bounded) for the new document to load. With `committed`, a load only
 * counts once this navigation committed: right after tabs.update/goBack/goForward resolve, the tab
 * still shows the old page as complete, and its late events look like the new page loading.
 */
async function loading(tabId: number, start: () => Promise<unknown>, committed = false): Promise<TabState> {
  let commit = !committed;
  const load = watchLoad(tabId, undefined, () => commit);
  const onCommitted = (d: { tabId: number; frameId: number }) => {
    if (d.tabId === tabId && d.frameId === 0) commit = true;
  };
  browser.webNavigation.onCommitted.addListener(onCommitted);
  try {
    await start();
    // An event may have been missed while the worker was busy: a tab already loaded counts.
    void browser.tabs.get(tabId).then(
      (tab) =>
        commit &&
        tab.status === 'complete' &&
        tab.url &&
        tab.url !== 'about:blank' &&
        !tab.pendingUrl &&
        load.resolve(),
      () => undefined,
    );
    await load.done;
  } finally {
    browser.webNavigation.onCommitted.removeListener(onCommitted);
    load.cancel();
  }
  return tabState(tabId);
}

/** A new tab for the session, in a tab group named for it, then opens the URL there. */
export async function openTab(params: CommandParams<'tab.open'>): Promise<CommandResult<'tab.open'>> {
  assertAllowed(params.url);
  // Opened at the URL directly: an about:blank tab updated right after creation sometimes never loads.
  const opened = expectSessionTab(params.url);
  const tab = await browser.tabs.create({ url: params.url, active: true }).finally(opened);
  const tabId = tab.id;
  if (tabId === undefined) throw new CommandFailure('internal', 'Chrome did not give the new tab an id.');
  await updateSessionTabs((tabs) => ({
    next: [...tabs, { sessionId: params.sessionId, tabId, url: params.url }],
    result: undefined,
  }));
  // Cosmetic, so never waited on: the session must not hang on a tab group.
  void groupTab(tabId, params.sessionId);
  try {
    // The load may have finished already; loading() checks the tab's status after registering.
    return await loading(tabId, async () => undefined);
  } catch (error) {
    await closeTab({ tabId });
    throw error;
  }
}

/** Tab groups are for the user's eyes; a browser without them still runs the session. */
async function groupTab(tabId: number, sessionId: string): Promise<void> {
  try {
    const groupId = await browser.tabs.group({ tabIds: [tabId] });
    await browser.tabGroups.update(groupId, {
      title: `Tandem ${sessionId.slice(-6)}`,
      color: 'blue',
      collapsed: false,
    });
  } catch {
    // no tab groups here (e.g. some headless builds)
  }
}

export async function closeTab(params: CommandParams<'tab.close'>): Promise<CommandResult<'tab.close'>> {
  // Forget it first, so onRemoved does not report a close the relay asked for.
  const known = await updateSessionTabs((tabs) => ({
    next: tabs.filter((t) => t.tabId !== params.tabId),
    result: tabs.some((t) => t.tabId === params.tabId),
  }));
  if (!known) return { closed: false };
  const closed = await browser.tabs.remove(params.tabId).then(
    () => true,
    () => false,
  );
  return { closed };
}

export async function navigate(params: CommandParams<'navigate'>): Promise<CommandResult<'navigate'>> {
  assertAllowed(params.url);
  await sessionTab(params.tabId);
  // Committed: under load, the "complete" of the page being left can arrive after the update started,
  // and answering then would let the next command (a goBack) run while this navigation is pending.
  return loading(params.tabId, () => browser.tabs.update(params.tabId, { url: params.url }), true);
}

export async function back(params: CommandParams<'back'>): Promise<CommandResult<'back'>> {
  return historyMove(params.tabId, -1);
}

export async function forward(params: CommandParams<'forward'>): Promise<CommandResult<'forward'>> {
  return historyMove(params.tabId, 1);
}

async function historyMove(tabId: number, delta: -1 | 1): Promise<CommandResult<'back'>> {
  await sessionTab(tabId);
  try {
    return { ...(await loading(tabId, () => historyStep(tabId, delta), true)), moved: true };
  } catch (error) {
    if (!(error instanceof NoHistory)) throw error;
    return { ...(await tabState(tabId)), moved: false };
  }
}

/** The tab has no page in the asked direction: an answer (moved: false), not a failure. */
class NoHistory extends Error {}

/** How long a history step through the page's own history API may take to start (commit). */
const HISTORY_FALLBACK_MS = 3_000;

/**
 * tabs.goBack/goForward follow the browser's back button, which skips entries Chrome judged were
 * added without the user (its history-manipulation intervention), and then refuses with "Cannot find
 * a next page in history" although the tab has that page. The page's own history API has no such
 * rule, so it is the fallback; when no navigation commits soon after, there was truly nothing there.
 */
async function historyStep(tabId: number, delta: -1 | 1): Promise<void> {
  try {
    await (delta < 0 ? browser.tabs.goBack(tabId) : browser.tabs.goForward(tabId));
    return;
  } catch {
    // Fall through to the page's history.
  }
  let onCommitted: (d: { tabId: number; frameId: number }) => void = () => undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const committed = new Promise<boolean>((resolve) => {
    onCommitted = (d) => {
      if (d.tabId === tabId && d.frameId === 0) resolve(true);
    };
    timer = setTimeout(() => resolve(false), HISTORY_FALLBACK_MS);
  });
  browser.webNavigation.onCommitted.addListener(onCommitted);
  try {
    await browser.scripting.executeScript({
      target: { tabId },
      func: (step: number) => history.go(step),
      args: [delta],
    });
    if (!(await committed)) throw new NoHistory();
  } finally {
    clearTimeout(timer);
    browser.webNavigation.onCommitted.removeListener(onCommitted);
  }
}
