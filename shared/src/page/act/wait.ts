import type { ActionOf, ActionResult } from '../../actions/index';
import { DEFAULT_TEXT_WAIT_MS, DEFAULT_WAIT_MS, MAX_WAIT_MS } from '../../actions/limits';
import { sleep } from '../dom-intrinsics';
import { dateNow, mathMax, mathMin, strIndexOf, strLower } from '../intrinsics';
import { collapseWhitespace } from '../text';
import { result } from './results';

/** How often to look for the text; a MutationObserver would miss text revealed by CSS alone. */
const POLL_MS = 100;

/** Rendered text of the document and its same-origin frames, lower-cased. */
function pageText(win: Window): string {
  let text = win.document.body?.innerText ?? '';
  for (let i = 0; i < win.frames.length; i++) {
    try {
      const frame = win.frames[i];
      text += `\n${frame?.document.body?.innerText ?? ''}`;
    } catch {
      // cross-origin frame: not ours to read
    }
  }
  return strLower(collapseWhitespace(text));
}

/** Waits a fixed time, or until text is visible; always bounded by MAX_WAIT_MS. */
export async function wait(top: Window, action: ActionOf<'wait'>): Promise<ActionResult> {
  const until = action.until_text;
  const requested = typeof action.ms === 'number' ? action.ms : until ? DEFAULT_TEXT_WAIT_MS : DEFAULT_WAIT_MS;
  const ms = mathMax(0, mathMin(MAX_WAIT_MS, requested));
  if (!until) {
    await sleep(ms);
    return result('ok', `Waited ${ms} ms.`);
  }
  const wanted = strLower(collapseWhitespace(until));
  const start = dateNow();
  for (;;) {
    if (strIndexOf(pageText(top), wanted) >= 0) {
      return result('ok', `"${until}" is on the page (after ${dateNow() - start} ms).`);
    }
    if (dateNow() - start >= ms) return result('timeout', `"${until}" did not appear within ${ms} ms.`);
    await sleep(mathMin(POLL_MS, mathMax(1, ms - (dateNow() - start))));
  }
}
