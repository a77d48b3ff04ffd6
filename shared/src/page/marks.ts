// Set-of-marks: the snapshot's element indices drawn over the page for one screenshot, so a model that
// sees the image can name an element by the same number the text snapshot gives it. The marks sit in
// a closed shadow root on top of everything, take no pointer events, and are removed right after the
// capture; the page's own DOM is left as it was.
import { docCreateElement, elAttachShadow, elRemove, nodeAppendChild, setAttr, setTextContent } from './dom-intrinsics';
import { mathRound } from './intrinsics';
import type { Mark } from './schema';

/** Distinct on light and dark pages; neighbours get different colours. */
const COLOURS = ['#e6194b', '#3cb44b', '#4363d8', '#f58231', '#911eb4', '#008080', '#9a6324', '#800000'];
const LABEL_HEIGHT = 16;

/** Draws `marks` over the document's viewport; remove the returned host to take them away. */
export function drawMarks(doc: Document, marks: readonly Mark[]): Element {
  const host = docCreateElement(doc, 'tandem-marks');
  setAttr(host, 'aria-hidden', 'true');
  setAttr(
    host,
    'style',
    'all:initial;position:fixed;inset:0;z-index:2147483647;pointer-events:none;contain:strict;display:block',
  );
  const root = elAttachShadow(host, { mode: 'closed' });
  for (let i = 0; i < marks.length; i++) {
    const { index, box } = marks[i] as Mark;
    if (box.width <= 0 || box.height <= 0) continue;
    if (marks[i]?.cover === true) {
      nodeAppendChild(root, coverBox(doc, box));
      continue;
    }
    const colour = COLOURS[index % COLOURS.length] as string;
    const outline = docCreateElement(doc, 'div');
    setAttr(
      outline,
      'style',
      `position:absolute;left:${mathRound(box.x)}px;top:${mathRound(box.y)}px;width:${mathRound(box.width)}px;height:${mathRound(box.height)}px;outline:2px solid ${colour};box-sizing:border-box`,
    );
    const label = docCreateElement(doc, 'div');
    // Above the element when there is room, else inside its top-left corner.
    const top = box.y >= LABEL_HEIGHT ? box.y - LABEL_HEIGHT : box.y;
    setAttr(
      label,
      'style',
      `position:absolute;left:${mathRound(box.x)}px;top:${mathRound(top)}px;height:${LABEL_HEIGHT}px;padding:0 3px;background:${colour};color:#fff;font:bold 13px/16px monospace;white-space:nowrap`,
    );
    setTextContent(label, String(index));
    nodeAppendChild(root, outline);
    nodeAppendChild(root, label);
  }
  nodeAppendChild(doc.documentElement, host);
  return host;
}

/** An opaque box over a field that holds a secret: the image shows that something is there, not what. */
function coverBox(doc: Document, box: Mark['box']): Element {
  const cover = docCreateElement(doc, 'div');
  setAttr(
    cover,
    'style',
    `position:absolute;left:${mathRound(box.x)}px;top:${mathRound(box.y)}px;width:${mathRound(box.width)}px;height:${mathRound(box.height)}px;background:#555;color:#fff;font:bold 12px/${mathRound(box.height)}px monospace;text-align:center;overflow:hidden`,
  );
  setTextContent(cover, 'secret');
  return cover;
}

/** Takes drawn marks away. */
export function removeMarks(host: Element): void {
  elRemove(host);
}
