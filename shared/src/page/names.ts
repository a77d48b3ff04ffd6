import { docGetById, fragmentGetById, getAttr, getRootNode } from './dom-intrinsics';
import { capText, collapseWhitespace, LABEL_CAP } from './text';

function textOfIds(el: Element, ids: string): string {
  const root = getRootNode(el) as Document | ShadowRoot;
  let out = '';
  let id = '';
  const flush = () => {
    if (!id) return;
    const target =
      (root.nodeType === 11 ? fragmentGetById(root as ShadowRoot, id) : null) ?? docGetById(el.ownerDocument, id);
    if (target) out += ` ${target.textContent ?? ''}`;
    id = '';
  };
  for (let i = 0; i < ids.length; i++) {
    const ch = ids[i] as string;
    if (ch === ' ') flush();
    else id += ch;
  }
  flush();
  return collapseWhitespace(out);
}

/**
 * A short name for an element, close to its accessible name: aria-labelledby, aria-label, the text
 * of its <label>s, placeholder, title, then the visible text (`text`) or an image's alt.
 */
export function elementName(el: Element, text: string): string {
  const candidates: (string | null)[] = [];
  const labelledBy = getAttr(el, 'aria-labelledby');
  candidates[0] = labelledBy ? textOfIds(el, labelledBy) : null;
  candidates[1] = getAttr(el, 'aria-label');
  const labels = (el as HTMLInputElement).labels;
  if (labels && labels.length > 0) {
    let joined = '';
    for (let i = 0; i < labels.length; i++) joined += ` ${(labels[i] as HTMLLabelElement).textContent ?? ''}`;
    candidates[2] = joined;
  }
  candidates[3] = getAttr(el, 'placeholder');
  candidates[4] = getAttr(el, 'title');
  candidates[5] = text;
  candidates[6] = getAttr(el, 'alt');
  for (let i = 0; i < candidates.length; i++) {
    const c = candidates[i];
    if (!c) continue;
    const name = collapseWhitespace(c);
    if (name) return capText(name, LABEL_CAP);
  }
  return '';
}
