import type { SessionTabInfo } from '@/utils/storage';
import { sessionTabs } from '@/utils/storage';

let chain: Promise<unknown> = Promise.resolve();

/**
 * Read-modify-write of the session tab list (storage.session), one at a time: two sessions opening at
 * once must not overwrite each other's entry.
 */
export function updateSessionTabs<T>(
  change: (tabs: SessionTabInfo[]) => { next: SessionTabInfo[]; result: T },
): Promise<T> {
  const run = chain.then(async () => {
    const { next, result } = change(await sessionTabs.getValue());
    await sessionTabs.setValue(next);
    return result;
  });
  chain = run.catch(() => undefined);
  return run;
}
