import type { z } from 'zod';
import type { ActionResult } from '../actions/index';
import { isTarget, resolveTarget } from './act/target';
import { mathRound } from './intrinsics';
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
  return {
    code: 'ok',
    message: `Element [${index}] is at (${mathRound(target.point.x)}, ${mathRound(target.point.y)}).`,
    box: { x: b.x, y: b.y, width: b.width, height: b.height },
    center: { x: target.point.x, y: target.point.y },
  };
}
