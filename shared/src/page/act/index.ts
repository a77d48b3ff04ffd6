import type { ActionInput, ActionResult } from '../../actions/index';
import { ErrorCtor, toStr } from '../intrinsics';
import type { ElementRegistry } from '../registry';
import { check, selectOption, type } from './forms';
import { focus, pressKey } from './keyboard';
import { type NavigationWatch, watchNavigation } from './navigation-watch';
import { click, hover, scroll } from './pointer';
import { result } from './results';
import { wait } from './wait';

/** Actions after which a new document may start loading. */
const MAY_NAVIGATE: Record<string, true> = {
  click: true,
  type: true,
  press_key: true,
  select_option: true,
  check: true,
};

function run(registry: ElementRegistry, top: Window, action: ActionInput): ActionResult | Promise<ActionResult> {
  switch (action.action) {
    case 'click':
      return click(registry, top, action as Parameters<typeof click>[2]);
    case 'hover':
      return hover(registry, top, action as Parameters<typeof hover>[2]);
    case 'scroll':
      return scroll(registry, top, action as Parameters<typeof scroll>[2]);
    case 'type':
      return type(registry, top, action as Parameters<typeof type>[2]);
    case 'select_option':
      return selectOption(registry, top, action as Parameters<typeof selectOption>[2]);
    case 'check':
      return check(registry, top, action as Parameters<typeof check>[2]);
    case 'press_key':
      return pressKey(registry, top, action as Parameters<typeof pressKey>[2]);
    case 'focus':
      return focus(registry, top, action as Parameters<typeof focus>[2]);
    case 'wait':
      return wait(top, action as Parameters<typeof wait>[1]);
    case 'navigate':
    case 'go_back':
    case 'go_forward':
    case 'switch_tab':
      return result('unsupported', `${action.action} is carried out by the driver, not inside the page.`);
    case 'done':
    case 'ask_user':
      return result('unsupported', `${action.action} ends the step; it does not act on the page.`);
    default:
      return result('error', `Unknown action "${toStr((action as { action?: unknown }).action)}".`);
  }
}

function malformed(action: unknown): string | null {
  if (!action || typeof action !== 'object') return 'the action must be an object';
  const a = action as { action?: unknown; index?: unknown };
  if (typeof a.action !== 'string') return 'the action needs an "action" name';
  if (a.index !== undefined && (typeof a.index !== 'number' || a.index % 1 !== 0 || a.index < 1)) {
    return 'index must be a whole number of at least 1';
  }
  return null;
}

/**
 * Runs one action in the page. Never throws: every failure, including a DOM exception thrown by a
 * page handler, comes back as a typed result. Notices a new document starting to load.
 */
export async function performAction(
  registry: ElementRegistry,
  top: Window,
  action: ActionInput,
): Promise<ActionResult> {
  const problem = malformed(action);
  if (problem) return result('error', `Malformed action: ${problem}.`);
  const before = top.location.href;
  const watch = MAY_NAVIGATE[action.action] === true ? watchNavigation(top) : null;
  let outcome: ActionResult;
  let target: string | null = null;
  try {
    // No waiting after the action: a navigation may destroy this document at the next task.
    outcome = await run(registry, top, action);
    target = watch ? watch.stop() : null;
  } catch (error) {
    stopQuietly(watch);
    return result('error', `The action failed inside the page: ${errorText(error)}`);
  }
  if (target !== null && outcome.code === 'ok') {
    const where = target ? ` to ${target}` : '';
    return result('navigation', `${outcome.message} The page is loading a new document${where}.`, {
      ...(target ? { url: target } : {}),
      ...(outcome.value !== undefined ? { value: outcome.value } : {}),
    });
  }
  if (top.location.href !== before && outcome.code === 'ok') {
    return { ...outcome, message: `${outcome.message} The URL is now ${top.location.href}.` };
  }
  return outcome;
}

function stopQuietly(watch: NavigationWatch | null): void {
  try {
    watch?.stop();
  } catch {
    // the listeners are gone with the document or were never added; nothing to report
  }
}

/** A thrown value as text; a page may throw anything, even an object whose getters throw. */
function errorText(error: unknown): string {
  try {
    return error instanceof ErrorCtor ? `${error.name}: ${error.message}` : toStr(error);
  } catch {
    return 'an exception the page threw';
  }
}
