import type { Action, ActionResult } from '@tandem/shared';
import type { BrowserDriver } from './driver';
import { statusNote } from './http-status';

/**
 * The actions every driver carries out the same way, through its own navigate/back/forward: undefined
 * for the others, which each driver runs itself. `checkUrl` refuses URLs the relay's policy forbids.
 */
export async function navigationAction(
  driver: Pick<BrowserDriver, 'navigate' | 'back' | 'forward' | 'url' | 'httpStatus'>,
  action: Action,
  checkUrl?: (url: string) => Promise<unknown>,
): Promise<ActionResult | undefined> {
  const note = () => statusNote(driver.httpStatus());
  switch (action.action) {
    case 'navigate':
      await checkUrl?.(action.url);
      await driver.navigate(action.url);
      return { code: 'navigation', message: `Opened ${driver.url()}.${note()}`, url: driver.url() };
    case 'go_back':
      return (await driver.back())
        ? { code: 'navigation', message: `Went back to ${driver.url()}.${note()}`, url: driver.url() }
        : { code: 'invalid_target', message: `There is no previous page in this tab; still at ${driver.url()}.` };
    case 'go_forward':
      return (await driver.forward())
        ? { code: 'navigation', message: `Went forward to ${driver.url()}.${note()}`, url: driver.url() }
        : { code: 'invalid_target', message: `There is no next page in this tab; still at ${driver.url()}.` };
    case 'done':
    case 'ask_user':
      return { code: 'ok', message: 'Nothing to do in the browser.' };
    default:
      return undefined;
  }
}
