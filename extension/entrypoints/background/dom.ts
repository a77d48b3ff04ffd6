import type { ActionResult, ActResult, CommandParams, CommandResult, PageContent, Snapshot } from '@tandem/shared';
import { actionExecutor, clickedMessage, fieldTookText, pressedMessage, typeOutcome } from '@tandem/shared/actions';
import type { ElementBoxResult } from '@tandem/shared/page';
import { browser } from 'wxt/browser';
import { noteAction } from './downloads';
import { CommandFailure } from './errors';
import { clickAt, pressKey, trustedInputOn, typeText } from './input';
import { detectNavigation, watchLoad } from './navigation';
import { applyDialogPolicy, drainPageEvents } from './page-events';
import { assertAllowed } from './restricted';
import { documentStatus, sessionTab } from './tabs';

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
    elementBox(index: number): ElementBoxResult;
    showMarks(marks: unknown): Promise<void>;
    hideMarks(): Promise<void>;
  };
}

/** `box`: where an element is, the link it opens, whether it takes keystrokes (the runtime's elementBox). */
type RuntimeOp = 'snapshot' | 'act' | 'content' | 'scrollToBottom' | 'box' | 'marks' | 'unmarks';

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
          if (o === 'box') return JSON.stringify(rt.elementBox(a as number));
          if (o === 'marks') return String(await rt.showMarks(a));
          if (o === 'unmarks') return String(await rt.hideMarks());
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
  const scrolled = scroll_to_bottom_ms
    ? (JSON.parse(await callRuntime(tabId, 'scrollToBottom', scroll_to_bottom_ms)) as PageContent['scrolled'])
    : undefined;
  const page = JSON.parse(await callRuntime(tabId, 'content', params.options ?? {})) as PageContent;
  return scrolled ? { ...page, scrolled: { reached_bottom: scrolled.reached_bottom, ms: scrolled.ms } } : page;
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
  await applyDialogPolicy(tabId, params.dialogs);
  noteAction(tabId);
  const load = watchLoad(tabId);
  try {
    const box = action.action === 'click' ? await refuseRestrictedLink(tabId, action.index) : undefined;
    const { value, started } = await detectNavigation(tabId, async () => {
      try {
        const trusted = await trustedAct(tabId, action, box);
        if (trusted) return trusted;
        return JSON.parse(await callRuntime(tabId, 'act', action)) as CommandResult<'act'>;
      } catch (error) {
        if (GONE_DOCUMENT.test(String(error))) return undefined; // the action took the document away
        throw error;
      }
    });
    if (started) await load.done.catch(() => undefined);
    const tab = await sessionTab(tabId);
    const outcome = value ?? { code: 'navigation' as const, message: `The page navigated after ${action.action}.` };
    const navigated = started || value === undefined;
    const status = navigated ? await documentStatus(tabId) : undefined;
    const events = await drainPageEvents(tabId);
    return {
      ...outcome,
      navigated,
      tabUrl: tab.url ?? '',
      ...(status !== undefined ? { status } : {}),
      ...(events.length ? { events } : {}),
    };
  } finally {
    load.cancel();
  }
}

/** Draws element indices over the tab's page for a capture (set-of-marks); `undefined` takes them away. */
export async function setMarks(tabId: number, marks: CommandParams<'screenshot'>['marks']): Promise<void> {
  // null, not undefined: chrome.scripting refuses arguments JSON cannot carry.
  await callRuntime(tabId, marks ? 'marks' : 'unmarks', marks ?? null);
}

async function elementBox(tabId: number, index: number): Promise<ElementBoxResult> {
  return JSON.parse(await callRuntime(tabId, 'box', index)) as ElementBoxResult;
}

/**
 * A click on a link to a restricted page (the web store, chrome://) is refused before it runs, so the
 * tab never leaves the page: the extension could not act on the next one anyway.
 */
async function refuseRestrictedLink(tabId: number, index: number): Promise<ElementBoxResult> {
  const box = await elementBox(tabId, index);
  if (box.code === 'ok' && box.link) assertAllowed(box.link);
  return box;
}

/**
 * Click, type and press_key through the debugger when the user switched trusted input on; undefined
 * leaves the action to the runtime's synthetic events (the default, and for fields keystrokes cannot fill).
 */
async function trustedAct(
  tabId: number,
  action: CommandParams<'act'>['action'],
  clickBox?: ElementBoxResult,
): Promise<ActionResult | undefined> {
  if (action.action !== 'click' && action.action !== 'type' && action.action !== 'press_key') return undefined;
  if (!(await trustedInputOn())) return undefined;
  if (action.action === 'click') {
    const box = clickBox ?? (await elementBox(tabId, action.index));
    if (box.code !== 'ok') return box;
    if (box.file) return undefined; // the runtime refuses file choosers, worded as the other drivers do
    if (!(await clickAt(tabId, box.center, action.double ?? false))) return undefined;
    return { code: 'ok', message: clickedMessage(box.described) };
  }
  const index = action.index;
  const box = index !== undefined ? await elementBox(tabId, index) : undefined;
  if (box && box.code !== 'ok') return box;
  // Dates, colours, selects and the like are filled better by the runtime's value setter.
  if (action.action === 'type' && !box?.keystrokes) return undefined;
  if (index !== undefined) {
    const focused = JSON.parse(await callRuntime(tabId, 'act', { action: 'focus', index })) as ActionResult;
    if (focused.code !== 'ok') return focused;
  }
  if (action.action === 'press_key') {
    const modifiers = action.modifiers ?? [];
    if (!(await pressKey(tabId, action.key, modifiers))) return undefined;
    return { code: 'ok', message: pressedMessage([...modifiers, action.key].join('+'), box?.described) };
  }
  if (!box) return undefined;
  const submit = action.submit ?? false;
  if (!(await typeText(tabId, action.text, { clear: action.clear !== false, submit: false }))) return undefined;
  // Read before Enter, as the runtime and the relay do; a page that swallowed the keys gets the setter.
  const value = await focusedValue(tabId);
  if (value !== undefined && !fieldTookText(value, action.text)) return undefined;
  if (submit && !(await pressKey(tabId, 'Enter', []))) return undefined;
  // Worded by the shared input policy, from the field itself, as the other paths do.
  return typeOutcome({
    target: box.described,
    kind: box.kind,
    value: value ?? action.text,
    asked: action.text,
    secret: box.secret,
    submitted: submit,
  });
}

/** The focused field's value (editable content: its text, whitespace collapsed); undefined when unreadable. */
async function focusedValue(tabId: number): Promise<string | undefined> {
  const [frame] = await browser.scripting
    .executeScript({
      target: { tabId },
      func: () => {
        const active = document.activeElement as (HTMLElement & { value?: unknown }) | null;
        if (!active) return undefined;
        if ('value' in active) return String(active.value);
        return active.isContentEditable ? (active.innerText || '').replace(/\s+/g, ' ').trim() : undefined;
      },
    })
    .catch(() => []);
  return typeof frame?.result === 'string' ? frame.result : undefined;
}
