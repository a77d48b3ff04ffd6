import type { ActionResult, ActionResultCode } from '../../actions/index';
import { elementName } from '../names';
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

/** `<button "Sign in">`, `<input "Username">`: the element by the name the snapshot gives it. */
export function describe(el: Element): string {
  const text = capText(elementName(el, collapseWhitespace((el as HTMLElement).innerText ?? el.textContent ?? '')), 40);
  return text ? `<${el.localName} "${text}">` : `<${el.localName}>`;
}

export function staleElement(index: number): ActionResult {
  return result(
    'stale_element',
    `No element has index ${index} any more (the page changed); take a new snapshot and use its indices.`,
  );
}
