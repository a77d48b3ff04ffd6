import type { ActionResult, ActionResultCode } from '../../actions/index';
import { getAttr } from '../dom-intrinsics';
import { capText, collapseWhitespace } from '../text';

export function result(
  code: ActionResultCode,
  message: string,
  extra?: { url?: string; value?: string },
): ActionResult {
  const out: ActionResult = { code, message };
  if (extra?.url !== undefined) out.url = extra.url;
  if (extra?.value !== undefined) out.value = extra.value;
  return out;
}

/** `<button "Sign in">`, for messages the model reads. */
export function describe(el: Element): string {
  const text = capText(
    collapseWhitespace(getAttr(el, 'aria-label') ?? (el as HTMLElement).innerText ?? el.textContent ?? ''),
    40,
  );
  return text ? `<${el.localName} "${text}">` : `<${el.localName}>`;
}

export function staleElement(index: number): ActionResult {
  return result(
    'stale_element',
    `No element has index ${index} any more (the page changed); take a new snapshot and use its indices.`,
  );
}
