import {
  FormDataCtor,
  formDataForEach,
  getAttr,
  listen,
  searchParamsAppend,
  searchParamsToString,
  setUrlSearch,
  URLCtor,
  URLSearchParamsCtor,
  unlisten,
  urlHref,
} from '../dom-intrinsics';
import { strLower } from '../intrinsics';

/** The Navigation API's `navigate` event, typed locally: lib.dom may not have it. */
interface NavigateEventLike extends Event {
  destination: { url: string; sameDocument: boolean };
}

export interface NavigationWatch {
  /** Stops watching; the URL a new document is loading, '' when the target is unknown, null when none. */
  stop(): string | null;
}

/** The query string a GET form submits, built with captured constructors (a page may replace them). */
function formQuery(form: HTMLFormElement, submitter: HTMLElement | null): string {
  const params = new URLSearchParamsCtor();
  formDataForEach(new FormDataCtor(form, submitter), (value, key) => {
    // A file field submits its file name in a GET query, as browsers do.
    searchParamsAppend(params, key, typeof value === 'string' ? value : value.name);
  });
  return searchParamsToString(params);
}

/** Where a form submission that nobody prevented is going, or null when it stays on the page. */
function submissionTarget(event: SubmitEvent): string | null {
  if (event.defaultPrevented) return null;
  const form = event.target as HTMLFormElement;
  const submitter = event.submitter as HTMLButtonElement | HTMLInputElement | null;
  // Attributes, not properties: an input named "action" or "method" shadows form.action / form.method.
  const attr = (name: string, formName: string) =>
    (submitter ? getAttr(submitter, name) : null) ?? getAttr(form, formName) ?? '';
  const method = strLower(attr('formmethod', 'method') || 'get');
  const target = attr('formtarget', 'target');
  if (method === 'dialog' || (target && target !== '_self')) return null;
  const url = new URLCtor(attr('formaction', 'action'), form.baseURI);
  if (method === 'get') setUrlSearch(url, formQuery(form, submitter));
  return urlHref(url);
}

/**
 * Notices an action starting a new document load in `win`, so the result can say `navigation`.
 * Uses the Navigation API where present (it names the destination, synchronously for links),
 * form `submit` events (their navigation starts a task later, possibly after the page is gone),
 * and `beforeunload` otherwise.
 */
export function watchNavigation(win: Window): NavigationWatch {
  let target: string | null = null;
  const nav = (win as unknown as { navigation?: EventTarget }).navigation;
  const onNavigate = (event: Event) => {
    const dest = (event as NavigateEventLike).destination;
    if (dest && !dest.sameDocument) target = dest.url;
  };
  const onUnload = () => {
    target ??= '';
  };
  let submit: SubmitEvent | null = null;
  const onSubmit = (event: Event) => {
    submit = event as SubmitEvent;
  };
  if (nav) listen(nav, 'navigate', onNavigate);
  listen(win, 'beforeunload', onUnload);
  listen(win, 'submit', onSubmit, true);
  return {
    stop() {
      if (nav) unlisten(nav, 'navigate', onNavigate);
      unlisten(win, 'beforeunload', onUnload);
      unlisten(win, 'submit', onSubmit, true);
      // Read after every handler ran, so a handler's preventDefault() counts.
      if (target === null && submit) {
        try {
          target = submissionTarget(submit);
        } catch {
          target = ''; // a submission is under way even when its URL cannot be worked out
        }
      }
      return target;
    },
  };
}
