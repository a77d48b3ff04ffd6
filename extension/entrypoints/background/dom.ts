import type { ActResult, CommandParams, CommandResult, PageContent, Snapshot } from '@tandem/shared';
import { actionExecutor } from '@tandem/shared/actions';
import { browser } from 'wxt/browser';
import { CommandFailure } from './errors';
import { detectNavigation, watchLoad } from './navigation';
import { assertAllowed } from './restricted';
import { sessionTab } from './tabs';

/** The bundled page runtime (entrypoints/runtime.ts). */
const RUNTIME_FILE = '/runtime.js';
const MISSING = '\u0000no-runtime';
const GONE_DOCUMENT =
  /frame (with ID 0 )?was removed|document was unloaded|Execution context was destroyed|No frame with id/i;

interface RuntimeGlobal {
  __tandem?: {
    snapshotJson(o: unknown): string;
    actJson(a: unknown): Promise<string>;
    contentJson(o: unknown): string;
    scrollToBottomJson(ms: number): Promise<string>;
  };
}

type RuntimeOp = 'snapshot' | 'act' | 'content' | 'scrollToBottom';

/**
 * Calls the runtime in the tab's top frame (isolated world), injecting it first when the document
 * has none. The functions are fixed here: the relay can never send code to run.
 */
async function callRuntime(tabId: number, op: RuntimeOp, arg: unknown): Promise<string> {
  const tab = await sessionTab(tabId);
  assertAllowed(tab.url ?? '');
  const run = () =>
    browser.scripting
      .executeScript({
        target: { tabId },
        args: [op, arg, MISSING],
        func: async (o: string, a: unknown, missing: string) => {
          const rt = (globalThis as RuntimeGlobal).__tandem;
          if (!rt) return missing;
          if (o === 'snapshot') return rt.snapshotJson(a);
          if (o === 'content') return rt.contentJson(a);
          if (o === 'scrollToBottom') return rt.scrollToBottomJson(a as number);
          return rt.actJson(a);
        },
      })
      .then((results) => results[0]?.result as string | undefined);
  try {
    let out = await run();
    if (out === MISSING) {
      await browser.scripting.executeScript({ target: { tabId }, files: [RUNTIME_FILE] });
      out = await run();
    }
    if (typeof out !== 'string' || out === MISSING)
      throw new CommandFailure('internal', 'The page runtime did not answer.');
    return out;
  } catch (error) {
    if (error instanceof CommandFailure) throw error;
    const text = error instanceof Error ? error.message : String(error);
    if (/Cannot access|cannot be scripted|extensions gallery|chrome:\/\//i.test(text))
      throw new CommandFailure('restricted_page', `The browser does not let extensions act on this page (${text}).`);
    if (/error page/i.test(text))
      throw new CommandFailure('navigation_failed', 'The tab shows an error page: the last page failed to load.');
    throw error;
  }
}

export async function snapshot(params: CommandParams<'snapshot'>): Promise<CommandResult<'snapshot'>> {
  return JSON.parse(await callRuntime(params.tabId, 'snapshot', params.options)) as Snapshot;
}

/** The content model for retrieve, after an optional bounded wait for loading and scroll to the bottom. */
export async function content(params: CommandParams<'content'>): Promise<CommandResult<'content'>> {
  const { tabId, settle_ms, scroll_to_bottom_ms } = params;
  if (settle_ms && (await sessionTab(tabId)).status === 'loading') {
    const load = watchLoad(tabId, settle_ms);
    await load.done.catch(() => undefined);
    load.cancel();
  }
  if (scroll_to_bottom_ms) await callRuntime(tabId, 'scrollToBottom', scroll_to_bottom_ms);
  return JSON.parse(await callRuntime(tabId, 'content', params.options ?? {})) as PageContent;
}

/** One element action; reports whether the page navigated and waits (bounded) for the new page. */
export async function act(params: CommandParams<'act'>): Promise<ActResult> {
  const { tabId, action } = params;
  if (actionExecutor(action.action) !== 'runtime' && action.action !== 'wait') {
    throw new CommandFailure(
      'bad_request',
      `${action.action} is not an element action; the relay runs it with the tab commands.`,
    );
  }
  const load = watchLoad(tabId);
  try {
    const { value, started } = await detectNavigation(tabId, async () => {
      try {
        return JSON.parse(await callRuntime(tabId, 'act', action)) as CommandResult<'act'>;
      } catch (error) {
        if (GONE_DOCUMENT.test(String(error))) return undefined; // the action took the document away
        throw error;
      }
    });
    if (started) await load.done.catch(() => undefined);
    const tab = await sessionTab(tabId);
    const outcome = value ?? { code: 'navigation' as const, message: `The page navigated after ${action.action}.` };
    return { ...outcome, navigated: started || value === undefined, tabUrl: tab.url ?? '' };
  } finally {
    load.cancel();
  }
}
