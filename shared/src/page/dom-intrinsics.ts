/**
 * DOM methods captured when the runtime loads (see intrinsics.ts for why). Property getters such as
 * `tagName` or `childNodes` are read directly: pages rarely redefine them, and capturing every
 * accessor would double the runtime's size.
 */
import { uncurry } from './intrinsics';

function setterOf<T>(proto: T, prop: string): (self: T, value: unknown) => void {
  const desc = Object.getOwnPropertyDescriptor(proto, prop);
  if (!desc?.set) throw new Error(`no setter for ${prop}`);
  return uncurry(desc.set) as (self: T, value: unknown) => void;
}

const win = window;
export const topWindow = win;
const computedStyle = uncurry(win.getComputedStyle);
export const getComputedStyleOf = (el: Element): CSSStyleDeclaration => computedStyle(win, el);

// `as unknown`: with Node types also loaded (tests), setTimeout is typed as returning a Timeout.
export const setTimeoutFn = uncurry(win.setTimeout) as unknown as (self: Window, fn: () => void, ms: number) => number;
export const sleep = (ms: number): Promise<void> =>
  new Promise<void>((resolve) => {
    setTimeoutFn(win, resolve, ms);
  });
export const winScrollBy = uncurry(win.scrollBy) as (self: Window, options: ScrollToOptions) => void;

const E = Element.prototype;
export const getAttr = uncurry(E.getAttribute);
export const hasAttr = uncurry(E.hasAttribute);
export const getRect = uncurry(E.getBoundingClientRect);
export const closest = uncurry(E.closest) as (self: Element, selector: string) => Element | null;
export const matches = uncurry(E.matches);
const nativeCheckVisibility = (E as Element & { checkVisibility?: (options?: object) => boolean }).checkVisibility;
/** Element.checkVisibility (Chromium 105+), or null where the browser lacks it. */
export const checkVisibility = nativeCheckVisibility ? uncurry(nativeCheckVisibility) : null;
export const elScrollIntoView = uncurry(E.scrollIntoView) as (self: Element, options: ScrollIntoViewOptions) => void;
export const elScrollBy = uncurry(E.scrollBy) as (self: Element, options: ScrollToOptions) => void;
export const elQueryAll = uncurry(E.querySelectorAll) as (self: Element, selector: string) => NodeListOf<Element>;
export const docQueryAll = uncurry(Document.prototype.querySelectorAll) as (
  self: Document,
  selector: string,
) => NodeListOf<Element>;
export const nodeContains = uncurry(Node.prototype.contains);
export const getRootNode = uncurry(Node.prototype.getRootNode);
export const docElementFromPoint = uncurry(Document.prototype.elementFromPoint);
export const shadowElementFromPoint = uncurry(ShadowRoot.prototype.elementFromPoint);
export const slotAssignedNodes = uncurry(HTMLSlotElement.prototype.assignedNodes);
export const docExecCommand = uncurry(Document.prototype.execCommand);
export const docHasFocus = uncurry(Document.prototype.hasFocus);

const H = HTMLElement.prototype;
export const htmlFocus = uncurry(H.focus) as (self: HTMLElement, options?: FocusOptions) => void;
export const htmlBlur = uncurry(H.blur);
export const htmlClick = uncurry(H.click);
export const formRequestSubmit = uncurry(HTMLFormElement.prototype.requestSubmit);
export const dialogClose = uncurry(HTMLDialogElement.prototype.close);

const T = EventTarget.prototype;
export const dispatch = uncurry(T.dispatchEvent);
export const listen = uncurry(T.addEventListener) as (
  self: EventTarget,
  type: string,
  fn: (event: Event) => void,
  options?: AddEventListenerOptions | boolean,
) => void;
export const unlisten = uncurry(T.removeEventListener) as (
  self: EventTarget,
  type: string,
  fn: (event: Event) => void,
  options?: EventListenerOptions | boolean,
) => void;

// The native setters React's value tracker does not intercept (it patches the instance, not the prototype).
export const setInputValue = setterOf(HTMLInputElement.prototype, 'value');
export const setTextAreaValue = setterOf(HTMLTextAreaElement.prototype, 'value');
export const setSelectValue = setterOf(HTMLSelectElement.prototype, 'value');
export const setOptionSelected = setterOf(HTMLOptionElement.prototype, 'selected');
export const setInputChecked = setterOf(HTMLInputElement.prototype, 'checked');

export const EventCtor = Event;
export const MouseEventCtor = MouseEvent;
export const PointerEventCtor = PointerEvent;
export const KeyboardEventCtor = KeyboardEvent;
export const InputEventCtor = InputEvent;
export const FocusEventCtor = FocusEvent;
