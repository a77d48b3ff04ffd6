/**
 * DOM methods captured when the runtime loads (see intrinsics.ts for why). Property getters such as
 * `tagName` or `childNodes` are read directly: pages rarely redefine them, and capturing every
 * accessor would double the runtime's size.
 */
import { PromiseCtor, uncurry } from './intrinsics';

function setterOf<T>(proto: T, prop: string): (self: T, value: unknown) => void {
  const desc = Object.getOwnPropertyDescriptor(proto, prop);
  if (!desc?.set) throw new Error(`no setter for ${prop}`);
  return uncurry(desc.set) as (self: T, value: unknown) => void;
}

const win = window;
export const topWindow = win;
/** The browser's language when the runtime loaded: date inputs read typed dates its way (en-US: month first). */
export const browserLanguage: string = win.navigator.language ?? '';
const computedStyle = uncurry(win.getComputedStyle);
export const getComputedStyleOf = (el: Element): CSSStyleDeclaration => computedStyle(win, el);

// `as unknown`: with Node types also loaded (tests), setTimeout is typed as returning a Timeout.
export const setTimeoutFn = uncurry(win.setTimeout) as unknown as (self: Window, fn: () => void, ms: number) => number;
export const sleep = (ms: number): Promise<void> =>
  new PromiseCtor<void>((resolve) => {
    setTimeoutFn(win, resolve, ms);
  });
const requestFrame = uncurry(win.requestAnimationFrame) as (self: Window, fn: () => void) => number;
/**
 * Resolves once the page has painted what changed (two frames), or after `maxMs` in a tab that paints
 * nothing (hidden): a capture right after a DOM change may otherwise show the frame before it.
 */
export const nextPaint = (maxMs = 100): Promise<void> =>
  new PromiseCtor<void>((resolve) => {
    setTimeoutFn(win, resolve, maxMs);
    requestFrame(win, () => requestFrame(win, resolve));
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
export const elQuery = uncurry(E.querySelector) as (self: Element, selector: string) => Element | null;
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
export const docGetById = uncurry(Document.prototype.getElementById);
/** getElementById of a shadow root (DocumentFragment.prototype holds it). */
export const fragmentGetById = uncurry(DocumentFragment.prototype.getElementById);
export const docGetSelection = uncurry(Document.prototype.getSelection);
export const selectAllChildren = uncurry(Selection.prototype.selectAllChildren);
export const selectionCollapseToEnd = uncurry(Selection.prototype.collapseToEnd);

const H = HTMLElement.prototype;
export const htmlFocus = uncurry(H.focus) as (self: HTMLElement, options?: FocusOptions) => void;
export const htmlBlur = uncurry(H.blur);
export const htmlClick = uncurry(H.click);
export const inputSelect = uncurry(HTMLInputElement.prototype.select);
export const textAreaSelect = uncurry(HTMLTextAreaElement.prototype.select);
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
export const docCreateElement = uncurry(Document.prototype.createElement) as (
  self: Document,
  tag: string,
) => HTMLElement;
export const elAttachShadow = uncurry(E.attachShadow);
export const nodeAppendChild = uncurry(Node.prototype.appendChild) as (self: Node, child: Node) => Node;
export const elRemove = uncurry(E.remove);
export const setAttr = uncurry(E.setAttribute);
export const setTextContent = setterOf(Node.prototype, 'textContent');
export const setInputValue = setterOf(HTMLInputElement.prototype, 'value');
export const setTextAreaValue = setterOf(HTMLTextAreaElement.prototype, 'value');
export const setSelectValue = setterOf(HTMLSelectElement.prototype, 'value');
export const setOptionSelected = setterOf(HTMLOptionElement.prototype, 'selected');
export const setInputChecked = setterOf(HTMLInputElement.prototype, 'checked');

// URL building for form submissions: a page may replace URL, URLSearchParams or FormData. Injected late
// (after such a page ran), the runtime still loads: what it could not capture throws when used, and a
// submission's URL is then reported as unknown.
function protoOf<T>(ctor: { prototype?: T } | undefined): T {
  return (ctor?.prototype ?? {}) as T;
}
function accessorOf<T, V>(proto: T, prop: string, kind: 'get' | 'set'): (self: T, value?: V) => V {
  const fn = Object.getOwnPropertyDescriptor(proto, prop)?.[kind];
  if (!fn) {
    return () => {
      throw new Error(`${prop} was replaced before the runtime loaded`);
    };
  }
  return uncurry(fn) as (self: T, value?: V) => V;
}
/** An own method of `proto`, or one that throws when the page replaced its constructor before we loaded. */
function methodOf<T, K extends keyof T>(proto: T, name: K): T[K] {
  if (Object.hasOwn(proto as object, name)) return proto[name];
  return (() => {
    throw new Error(`${String(name)} was replaced before the runtime loaded`);
  }) as T[K];
}
export const URLCtor = URL;
const URLProto = protoOf<URL>(URL);
export const setUrlSearch = accessorOf<URL, string>(URLProto, 'search', 'set');
export const urlHref = accessorOf<URL, string>(URLProto, 'href', 'get');
export const URLSearchParamsCtor = URLSearchParams;
const ParamsProto = protoOf<URLSearchParams>(URLSearchParams);
export const searchParamsAppend = uncurry(methodOf(ParamsProto, 'append'));
export const searchParamsToString = uncurry(methodOf(ParamsProto, 'toString'));
export const FormDataCtor = FormData;
export const formDataForEach = uncurry(methodOf(protoOf<FormData>(FormData), 'forEach')) as (
  self: FormData,
  fn: (value: FormDataEntryValue, key: string) => void,
) => void;

export const EventCtor = Event;
export const MouseEventCtor = MouseEvent;
export const PointerEventCtor = PointerEvent;
export const KeyboardEventCtor = KeyboardEvent;
export const InputEventCtor = InputEvent;
export const FocusEventCtor = FocusEvent;
