/** The name a page gives a collection: its caption or label, else the nearest heading above it. */
import { elQueryAll, getAttr } from '../dom-intrinsics';
import { collapseWhitespace } from '../text';
import { type Scope, tagOf, textOf } from './dom';

const HEADINGS = 'h1, h2, h3, h4, h5, h6, [role=heading]';
/** Siblings looked at before giving up: a heading further away names something else. */
const MAX_STEPS = 12;

function isHeadingEl(el: Element): boolean {
  const tag = tagOf(el);
  return (tag.length === 2 && tag[0] === 'h' && tag[1]! >= '1' && tag[1]! <= '6') || getAttr(el, 'role') === 'heading';
}

/** `<caption>`, aria-label or summary of the element itself, else the last heading before it. */
export function headingFor(el: Element, scope: Scope): string {
  const label = getAttr(el, 'aria-label') ?? getAttr(el, 'summary');
  if (label) return collapseWhitespace(label);
  if (tagOf(el) === 'table') {
    const captions = elQueryAll(el, 'caption');
    if (captions.length > 0) {
      const caption = textOf(captions[0] as Element, scope);
      if (caption) return caption;
    }
  }
  let steps = 0;
  const body = scope.doc.body;
  for (let node: Element | null = el; node && node !== body && steps < MAX_STEPS; node = node.parentElement) {
    for (let sib = node.previousElementSibling; sib && steps < MAX_STEPS; sib = sib.previousElementSibling) {
      steps++;
      if (isHeadingEl(sib)) return textOf(sib, scope);
      const inside = elQueryAll(sib, HEADINGS);
      if (inside.length > 0) return textOf(inside[inside.length - 1] as Element, scope);
    }
  }
  return '';
}
