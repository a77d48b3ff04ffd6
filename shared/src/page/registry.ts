import { SafeMap, SafeWeakMap } from './intrinsics';

/**
 * The element ⇄ index map of one document. It lives in the installed global, so an element keeps
 * its index across snapshots (and across re-injections of the runtime) until it leaves the DOM.
 */
export class ElementRegistry {
  readonly #indexOf = new SafeWeakMap<Element, number>();
  readonly #byIndex = new SafeMap<number, Element>();
  #next = 1;
  /** Snapshots taken so far; the first one marks nothing as new. */
  snapshots = 0;

  /** The element's index, assigning the next one if it has none; `isNew` when just assigned. */
  indexFor(el: Element): { index: number; isNew: boolean } {
    const known = this.#indexOf.get(el);
    if (known !== undefined) return { index: known, isNew: false };
    const index = this.#next++;
    this.#indexOf.set(el, index);
    this.#byIndex.set(index, el);
    return { index, isNew: true };
  }

  /** The element behind an index, or null when it never existed or has left the document. */
  lookup(index: number): Element | null {
    const el = this.#byIndex.get(index);
    if (!el) return null;
    if (!el.isConnected) {
      this.#byIndex.delete(index);
      return null;
    }
    return el;
  }

  /** Drops elements that left the document, so the map does not grow with a long-lived page. */
  prune(): void {
    const gone: number[] = [];
    this.#byIndex.forEach((el, index) => {
      if (!el.isConnected) gone[gone.length] = index;
    });
    for (let i = 0; i < gone.length; i++) this.#byIndex.delete(gone[i] as number);
  }
}
