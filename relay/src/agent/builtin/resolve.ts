import { answerQuestion } from './answer';
import { understandQuestion } from './messages';
import { act, type Resolution, type ResolveContext } from './resolution';
import { resolveCheck, resolveFill, resolveLogin, resolveSearch, resolveSelect, resolveSubmit } from './resolve-forms';
import {
  resolveClick,
  resolveDismiss,
  resolveExpand,
  resolveFocus,
  resolveHover,
  resolveScroll,
  resolveSlide,
} from './resolve-pointer';
import type { SubStep } from './substeps';

/** Turns one sub-step into actions against the current page (or says why it cannot yet). */
export function resolveStep(step: SubStep, ctx: ResolveContext, currentUrl: string): Resolution {
  switch (step.kind) {
    case 'navigate': {
      const url = absoluteUrl(step.url, currentUrl);
      return act([{ action: 'navigate', url }], [undefined], `opened ${url}`);
    }
    case 'back':
      return act([{ action: 'go_back' }], [undefined], 'went back');
    case 'reload':
      return act([{ action: 'navigate', url: currentUrl }], [undefined], 'reloaded the page');
    case 'dismiss':
      return resolveDismiss(ctx);
    case 'forward':
      return act([{ action: 'go_forward' }], [undefined], 'went forward');
    case 'click':
      return resolveClick(step, ctx);
    case 'hover':
      return resolveHover(step, ctx);
    case 'fill':
      return resolveFill(step.entry, ctx);
    case 'select':
      return resolveSelect(step, ctx);
    case 'check':
      return resolveCheck(step, ctx);
    case 'expand':
      return resolveExpand(step, ctx);
    case 'press': {
      const combo = [...step.modifiers, step.key].join('+');
      return act([{ action: 'press_key', key: step.key, modifiers: step.modifiers }], [undefined], `pressed ${combo}`);
    }
    case 'submit':
      return resolveSubmit(ctx);
    case 'scroll':
      return resolveScroll(step, ctx);
    case 'search':
      return resolveSearch(step.query, ctx);
    case 'login':
      return resolveLogin(step, ctx);
    case 'wait':
      return step.text
        ? act([{ action: 'wait', until_text: step.text, ms: 10_000 }], [undefined], `waited for "${step.text}"`)
        : act([{ action: 'wait', ms: step.ms ?? 1000 }], [undefined], `waited ${step.ms ?? 1000} ms`);
    case 'question': {
      const answer = answerQuestion(step.question, ctx.snapshot);
      return answer
        ? { type: 'answer', text: answer }
        : { type: 'missing', what: `the answer to "${step.question}"`, question: true };
    }
    case 'focus':
      return resolveFocus(step, ctx);
    case 'slide':
      return resolveSlide(step, ctx);
    case 'context':
      return { type: 'skip', note: '' };
    case 'unknown':
      return { type: 'ask', question: understandQuestion(step.text, step.why) };
  }
}

/** "example.com" → https://example.com/; "/login.html" → against the current page. */
export function absoluteUrl(url: string, currentUrl: string): string {
  if (/^https?:\/\//i.test(url)) return url;
  if (url.startsWith('/') && currentUrl) return new URL(url, currentUrl).href;
  const local = /^(?:localhost|127\.0\.0\.1|\[::1\])(?::\d+)?(?:\/|$)/i.test(url);
  return `${local ? 'http' : 'https'}://${url.replace(/^\/+/, '')}`;
}
