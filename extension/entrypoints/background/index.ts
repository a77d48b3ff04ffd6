import { browser } from 'wxt/browser';
import { apiEnabled, deviceToken, relayUrl, sessionTabs, trustedInput } from '@/utils/storage';
import { ALARM_NAME, RelayConnection } from './connection';
import { watchDownloads } from './downloads';
import { detachAll, watchDebugger } from './input';
import { watchPageEvents } from './page-events';
import { updateSessionTabs } from './session-tabs';
import { wasStopped, watchStopRequests } from './stop';

export default defineBackground(() => {
  const relay = new RelayConnection();

  // Listeners go on synchronously, so events that woke the worker are delivered.
  for (const item of [relayUrl, deviceToken, apiEnabled]) item.watch(() => void relay.sync());
  watchDebugger();
  watchPageEvents();
  watchDownloads();
  watchStopRequests();
  // Switched off: no debugger stays attached to any tab.
  trustedInput.watch((on) => {
    if (!on) void detachAll();
  });
  browser.alarms.onAlarm.addListener((alarm) => {
    if (alarm.name === ALARM_NAME) void relay.sync();
  });
  browser.tabs.onRemoved.addListener(async (tabId) => {
    const closed = await updateSessionTabs((tabs) => ({
      next: tabs.filter((t) => t.tabId !== tabId),
      result: tabs.find((t) => t.tabId === tabId),
    }));
    // Not a session tab, or closed by the relay (already forgotten).
    if (closed) relay.tabClosed(closed.sessionId, tabId, wasStopped(closed.sessionId) ? 'stopped' : 'closed');
  });
  // The popup lists sessions by their page's title and site.
  browser.tabs.onUpdated.addListener(async (tabId, change) => {
    if (change.url === undefined && change.title === undefined) return;
    if (!(await sessionTabs.getValue()).some((t) => t.tabId === tabId)) return;
    const { url, title } = change;
    await updateSessionTabs((tabs) => ({
      next: tabs.map((t) =>
        t.tabId === tabId
          ? { ...t, ...(url !== undefined ? { url } : {}), ...(title !== undefined ? { title } : {}) }
          : t,
      ),
      result: undefined,
    }));
  });

  RelayConnection.ensureAlarm();
  void relay.sync();
});
