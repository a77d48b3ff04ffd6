import type { ActionInput, ActionResult } from '../actions/index';
import { performAction } from './act/index';
import { type ElementBoxResult, elementBox } from './box';
import { scrollToBottom, takeContent } from './content/index';
import type { ContentOptions, PageContent } from './content-schema';
import { nextPaint, sleep } from './dom-intrinsics';
import type { FieldValue } from './form-state';
import { readForms, writeForms } from './forms';
import { frameContextOf, topBox } from './geometry';
import { append, freeze, jsonParse, jsonStringify } from './intrinsics';
import { drawMarks, removeMarks } from './marks';
import { ElementRegistry } from './registry';
import type { Mark, Snapshot, SnapshotOptions } from './schema';
import { takeSnapshot } from './snapshot';

/** Bumped when the runtime's API changes shape; drivers may check it. */
export const RUNTIME_VERSION = '1';

/** The page runtime: everything that reads or acts on a page goes through this object. */
export interface TandemRuntime {
  readonly version: string;
  /** Indexed interactive elements plus page text, structured and as compact LLM text. */
  snapshot(options?: Partial<SnapshotOptions>): Snapshot;
  /** Runs one action; never throws. Driver actions (navigate, go_back...) answer `unsupported`. */
  act(action: ActionInput): Promise<ActionResult>;
  /** Box and clickable point of an element, scrolled into view first, for trusted driver input. */
  elementBox(index: number, options?: { scroll_into_view?: boolean }): ElementBoxResult;
  /** Scrolls an element into view (if it is not already) and reports whether it can be acted on. */
  scrollIntoView(index: number): ActionResult;
  /**
   * `snapshot` as a JSON string, serialized with the JSON captured at load. Drivers should prefer it:
   * Playwright's own return-value serializer runs in the page's world and a page that patches
   * Array.prototype breaks it (objects come back undefined); a string always crosses.
   */
  snapshotJson(options?: Partial<SnapshotOptions>): string;
  /** `act` as a JSON string, for the same reason. */
  actJson(action: ActionInput): Promise<string>;
  /** The content model for retrieve: blocks, links, images, tables, repeated records, metadata. */
  content(options?: Partial<ContentOptions>): PageContent;
  /** `content` as a JSON string (see snapshotJson). */
  contentJson(options?: Partial<ContentOptions>): string;
  /** Scrolls to the bottom until the page stops growing or `maxMs` pass (lazy lists); JSON of what happened. */
  scrollToBottomJson(maxMs: number): Promise<string>;
  /** Draws element indices over the viewport for one screenshot (set-of-marks); resolves once painted. */
  showMarks(marks: readonly Mark[]): Promise<void>;
  /** `showMarks` with the marks as JSON, parsed with the JSON captured at load (see snapshotJson). */
  showMarksJson(marks: string): Promise<void>;
  /** Takes the marks away again; resolves once painted. */
  hideMarks(): Promise<void>;
  /** The form fields a visitor changed (FormState as JSON), kept while a session is parked. */
  readFormsJson(): string;
  /** Puts fields read by readFormsJson back (a FieldValue[] as JSON); JSON of how many it could. */
  writeFormsJson(fields: string): string;
}

/** Creates a runtime bound to `win`; its element registry keeps indices stable across snapshots. */
export function createRuntime(win: Window): TandemRuntime {
  const registry = new ElementRegistry();
  const snapshot = (options?: Partial<SnapshotOptions>) => takeSnapshot(win, registry, options ?? {});
  const act = (action: ActionInput) => performAction(registry, win, action);
  let marks: Element | null = null;
  const removeShown = () => {
    if (marks) removeMarks(marks);
    marks = null;
  };
  const showMarks = (list: readonly Mark[]) => {
    removeShown();
    // A loop, not list.map: a page may have patched Array.prototype (hostile.html does).
    const drawn: Mark[] = [];
    for (let i = 0; i < list.length; i++) {
      const mark = list[i] as Mark;
      append(drawn, mark.cover === true ? coverAt(mark) : mark);
    }
    marks = drawMarks(win.document, drawn);
    return nextPaint();
  };
  // A covered field is painted where it is now: the page may have scrolled since the snapshot gave its box.
  const coverAt = (mark: Mark): Mark => {
    const el = registry.lookup(mark.index);
    if (!el) return mark;
    const box = topBox(el, frameContextOf(el, win));
    return { index: mark.index, cover: true, box: { x: box.x, y: box.y, width: box.width, height: box.height } };
  };
  return freeze({
    version: RUNTIME_VERSION,
    snapshot,
    act,
    snapshotJson: (options?: Partial<SnapshotOptions>) => jsonStringify(snapshot(options)),
    actJson: async (action: ActionInput) => jsonStringify(await act(action)),
    content: (options?: Partial<ContentOptions>) => takeContent(win, options ?? {}),
    contentJson: (options?: Partial<ContentOptions>) => jsonStringify(takeContent(win, options ?? {})),
    scrollToBottomJson: async (maxMs: number) => jsonStringify(await scrollToBottom(win, sleep, maxMs)),
    elementBox: (index: number, options?: { scroll_into_view?: boolean }) =>
      elementBox(registry, win, index, options ?? {}),
    showMarks,
    showMarksJson: (json: string) => showMarks(jsonParse(json) as Mark[]),
    hideMarks: () => {
      removeShown();
      return nextPaint();
    },
    readFormsJson: () => jsonStringify(readForms(win.document)),
    writeFormsJson: (json: string) => jsonStringify(writeForms(win.document, jsonParse(json) as FieldValue[])),
    scrollIntoView: (index: number): ActionResult => {
      const found = elementBox(registry, win, index, { scroll_into_view: true });
      return found.code === 'ok' ? { code: 'ok', message: `Element [${index}] is in view.` } : found;
    },
  });
}
