import {
  dispatch,
  EventCtor,
  htmlFocus,
  InputEventCtor,
  KeyboardEventCtor,
  MouseEventCtor,
  PointerEventCtor,
} from '../dom-intrinsics';

/** A point in the element's own document viewport. */
export interface LocalPoint {
  x: number;
  y: number;
}

export interface KeyModifiers {
  ctrlKey?: boolean;
  shiftKey?: boolean;
  altKey?: boolean;
  metaKey?: boolean;
}

function mouseInit(el: Element, at: LocalPoint, extra: MouseEventInit): MouseEventInit {
  return {
    bubbles: true,
    cancelable: true,
    composed: true,
    view: el.ownerDocument.defaultView,
    clientX: at.x,
    clientY: at.y,
    button: 0,
    ...extra,
  };
}

/** Fires a mouse event; pointer events go through `pointer`. Returns false when a handler prevented it. */
export function mouse(el: Element, type: string, at: LocalPoint, extra: MouseEventInit = {}): boolean {
  return dispatch(el, new MouseEventCtor(type, mouseInit(el, at, extra)));
}

export function pointer(el: Element, type: string, at: LocalPoint, extra: PointerEventInit = {}): boolean {
  const init: PointerEventInit = { ...mouseInit(el, at, extra), pointerId: 1, pointerType: 'mouse', isPrimary: true };
  return dispatch(el, new PointerEventCtor(type, init));
}

/** The events a mouse produces moving onto an element. */
export function hoverEvents(el: Element, at: LocalPoint): void {
  pointer(el, 'pointerover', at);
  pointer(el, 'pointerenter', at, { bubbles: false });
  mouse(el, 'mouseover', at);
  mouse(el, 'mouseenter', at, { bubbles: false });
  pointer(el, 'pointermove', at);
  mouse(el, 'mousemove', at);
}

/** The events a mouse produces leaving an element. */
export function leaveEvents(el: Element, at: LocalPoint): void {
  pointer(el, 'pointerout', at);
  pointer(el, 'pointerleave', at, { bubbles: false });
  mouse(el, 'mouseout', at);
  mouse(el, 'mouseleave', at, { bubbles: false });
}

/**
 * A full synthetic click: press, focus (a synthetic mousedown does not move focus), release, click.
 * The click event triggers the element's activation behaviour (links follow, checkboxes toggle).
 */
export function clickEvents(el: Element, at: LocalPoint, count: number): void {
  hoverEvents(el, at);
  for (let n = 1; n <= count; n++) {
    const pressed =
      pointer(el, 'pointerdown', at, { buttons: 1 }) && mouse(el, 'mousedown', at, { buttons: 1, detail: n });
    if (pressed && n === 1 && typeof (el as HTMLElement).focus === 'function') {
      htmlFocus(el as HTMLElement, { preventScroll: true });
    }
    pointer(el, 'pointerup', at);
    mouse(el, 'mouseup', at, { detail: n });
    mouse(el, 'click', at, { detail: n });
  }
  if (count >= 2) mouse(el, 'dblclick', at, { detail: 2 });
}

export function keyEvent(el: EventTarget, type: string, key: string, mods: KeyModifiers): boolean {
  const code = key.length === 1 ? '' : key;
  return dispatch(
    el,
    new KeyboardEventCtor(type, { key, code, bubbles: true, cancelable: true, composed: true, ...mods }),
  );
}

export function inputEvent(
  el: Element,
  type: 'beforeinput' | 'input',
  inputType: string,
  data: string | null,
): boolean {
  return dispatch(
    el,
    new InputEventCtor(type, { inputType, data, bubbles: true, cancelable: type === 'beforeinput', composed: true }),
  );
}

export function plainEvent(el: EventTarget, type: string, cancelable = false): boolean {
  return dispatch(el, new EventCtor(type, { bubbles: true, cancelable }));
}
