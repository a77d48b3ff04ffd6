import type { CommandParams, CommandResult, TabState } from '@tandem/shared';
import { browser } from 'wxt/browser';
import { sessionTabs } from '@/utils/storage';
import { CommandFailure } from './errors';
import { watchLoad } from './navigation';
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
  return { tabId, url: tab.url ?? '', title: tab.title ?? '' };
}

/**
 * Runs a navigation and waits (bounded) for the new document to load. With `committed`, a tab that
 * looks loaded only counts once the navigation committed: right after goBack/goForward resolve, the tab
 * still shows the old page as complete.
 */
async function loading(tabId: number, start: () => Promise<unknown>, committed = false): Promise<TabState> {
  const load = watchLoad(tabId);
  let commit = !committed;
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
  const tab = await browser.tabs.create({ url: params.url, active: true });
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
  return loading(params.tabId, () => browser.tabs.update(params.tabId, { url: params.url }));
}

export async function back(params: CommandParams<'back'>): Promise<CommandResult<'back'>> {
  await sessionTab(params.tabId);
  return loading(params.tabId, () => browser.tabs.goBack(params.tabId), true);
}

export async function forward(params: CommandParams<'forward'>): Promise<CommandResult<'forward'>> {
  await sessionTab(params.tabId);
  return loading(params.tabId, () => browser.tabs.goForward(params.tabId), true);
}
