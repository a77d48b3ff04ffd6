import type { z } from 'zod';
import type { ActionResult } from '../actions/index';
import { takesKeystrokes } from '../actions/input-policy';
import { describe } from './act/results';
import { isTarget, resolveTarget } from './act/target';
import { isSecret } from './act/typing';
import { absoluteUrl } from './content/dom';
import { closest, getAttr } from './dom-intrinsics';
import { mathRound, strLower } from './intrinsics';
import type { ElementRegistry } from './registry';
import type { SnapshotBox } from './schema';

type Box = z.infer<typeof SnapshotBox>;

/** Where an element is, for trusted input from the driver (`page.mouse.click(center.x, center.y)`). */
export type ElementBoxResult =
  | {
      code: 'ok';
      message: string;
      /** Border box in top-viewport CSS pixels. */
      box: Box;
      /** A point on the element that hit-testing confirms is not covered (usually its center). */
      center: { x: number; y: number };
      /** The absolute URL a click would follow (the element or its enclosing link), else "". */
      link: string;
      /** A file input: clicking it opens a file chooser. */
      file: boolean;
      /** Takes typed keystrokes (text-like inputs, textareas, editable content), rather than a set value. */
      keystrokes: boolean;
      /** A password field: what is typed into it is never repeated (passwordTypedMessage). */
      secret: boolean;
      /** The element as action messages name it: `<input "Email"> [4]`. */
      described: string;
      /** Its input type lower-cased, or its tag (what a message calls a field that did not take text). */
      kind: string;
    }
  | (ActionResult & { code: Exclude<ActionResult['code'], 'ok'> });

/**
 * The element's box and a clickable point in top-viewport coordinates. Scrolls it into view first
 * unless `scroll_into_view` is false; refuses hidden, covered or stale
 * elements with the same result codes as `act`.
 */
export function elementBox(
  registry: ElementRegistry,
  top: Window,
  index: number,
  options: { scroll_into_view?: boolean } = {},
): ElementBoxResult {
  const target = resolveTarget(registry, top, index, {
    allowDisabled: true,
    scroll: options.scroll_into_view !== false,
  });
  if (!isTarget(target)) return target as ElementBoxResult;
  const b = target.box;
  const el = target.el;
  const anchor = closest(el, 'a[href]');
  return {
    code: 'ok',
    message: `Element [${index}] is at (${mathRound(target.point.x)}, ${mathRound(target.point.y)}).`,
    box: { x: b.x, y: b.y, width: b.width, height: b.height },
    center: { x: target.point.x, y: target.point.y },
    link: anchor ? absoluteUrl(getAttr(anchor, 'href'), el.ownerDocument.baseURI) : '',
    file: el.localName === 'input' && strLower(getAttr(el, 'type') ?? '') === 'file',
    keystrokes: takesKeystrokes(el.localName, inputType(el), (el as HTMLElement).isContentEditable === true),
    secret: isSecret(el),
    described: `${describe(el)} [${index}]`,
    kind: el.localName === 'input' ? inputType(el) || 'text' : el.localName,
  };
}

function inputType(el: Element): string {
  return strLower(getAttr(el, 'type') ?? '');
}
