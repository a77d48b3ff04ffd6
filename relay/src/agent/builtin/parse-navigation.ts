import { type ClauseInput, clauseParser, parseTarget, textOf } from './grammar';
import { parseKey } from './keys';
import type { SubStep } from './substeps';

const PLACEHOLDER = /^\uE000(\d+)\uE001$/;
const URL_LIKE = /^(?:https?:\/\/|www\.|\/|localhost\b)|^[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}(?::\d+)?(?:[/?#].*)?$/i;

/** The protected piece in `text` when it looks like a URL, a host name or a path. */
function urlIn(clause: ClauseInput, text: string): string | undefined {
  const match = PLACEHOLDER.exec(text.trim());
  if (!match) return undefined;
  const slot = clause.slots[Number(match[1])];
  return slot && URL_LIKE.test(slot.text) ? slot.text : undefined;
}

const NAVIGATE =
  /^(?:open(?: up)?|go(?: to)?|goto|visit|navigate(?: to)?|load|browse(?: to)?|head(?: over)? to|take me to|bring up|jump to)\s+(?:the\s+)?(?:url|page|website|web site|site|address|link)?\s*(?:at\s+)?(\S+)(?:\s+(?:page|website|site|in the browser))?$/i;

export const parseNavigate = clauseParser((clause) => {
  const target = NAVIGATE.exec(clause.head)?.[1] ?? clause.head;
  const url = urlIn(clause, target);
  return url ? [{ kind: 'navigate', url }] : undefined;
});

export const parseHistory = clauseParser(({ head }) => {
  if (/^(?:refresh|reload)(?:\s+(?:the|this)\s+page)?$/i.test(head)) return [{ kind: 'reload' }];
  if (
    /^(?:go|navigate|head|step|move)\s+back\b|^(?:return|get back) to the previous page$|^(?:back|previous page)$/i.test(
      head,
    )
  ) {
    return [{ kind: 'back' }];
  }
  if (/^(?:press|click|hit|use) (?:the )?(?:browser'?s? )?back(?: button)?$/i.test(head)) return [{ kind: 'back' }];
  if (/^(?:go|navigate|move)\s+forward\b|^(?:press|click) (?:the )?forward(?: button)?$/i.test(head)) {
    return [{ kind: 'forward' }];
  }
  return undefined;
});

const AMOUNTS: Record<string, number> = { one: 1, once: 1, two: 2, twice: 2, three: 3, thrice: 3, four: 4, five: 5 };

export const parseScroll = clauseParser((clause) => {
  const head = clause.head;
  const jump =
    /^(?:go|jump|move|skip|get)\s+(?:all the way\s+)?to\s+the\s+(?:very\s+)?(bottom|end|top|beginning|start)(?:\s+of the page)?$/i.exec(
      head,
    );
  if (jump) return [edge(jump[1]!)];
  if (/^page (?:down|up)$/i.test(head))
    return [{ kind: 'scroll', direction: /up$/i.test(head) ? 'up' : 'down', amount: 1 }];
  const match = /^scroll\b(.*)$/i.exec(head);
  if (!match) return undefined;
  const rest = match[1]!.trim();
  const to = /\b(?:to|at)\s+the\s+(?:very\s+)?(bottom|end|top|beginning|start)\b(?:\s+of\s+(.+))?/i.exec(rest);
  if (to) {
    // "scroll to the bottom of the terms box": that box scrolls, not the page.
    const box = to[2] && !/^(?:the\s+)?(?:page|screen|window|site)$/i.test(to[2].trim()) ? to[2] : undefined;
    return [{ ...edge(to[1]!), ...(box ? { within: parseTarget(clause, box) } : {}) }];
  }
  const direction = /^(?:the page\s+)?up\b/i.test(rest) || /\bup\b/i.test(rest) ? 'up' : 'down';
  const until = /\b(?:to|until you see|until|till)\s+(?:you\s+(?:see|find)\s+)?(.+)$/i.exec(rest);
  if (until) return [{ kind: 'scroll', direction, amount: 1, target: parseTarget(clause, until[1]!).text }];
  return [{ kind: 'scroll', direction, amount: amountOf(rest) }];
});

function edge(word: string): SubStep {
  const top = /^(?:top|beginning|start)$/i.test(word);
  return { kind: 'scroll', direction: top ? 'up' : 'down', amount: 10, to: top ? 'top' : 'bottom' };
}

function amountOf(text: string): number {
  if (/\b(?:a bit|a little|slightly|half)\b/i.test(text)) return 0.5;
  const number = /(\d+(?:\.\d+)?)/.exec(text)?.[1];
  if (number) return Math.min(10, Math.max(0.5, Number(number)));
  const word = /\b(one|once|two|twice|three|thrice|four|five)\b/i.exec(text)?.[1]?.toLowerCase();
  return word ? (AMOUNTS[word] ?? 1) : 1;
}

export const parseWait = clauseParser((clause) => {
  const match = /^wait\b(.*)$/i.exec(clause.head);
  if (!match) return undefined;
  const rest = match[1]!.trim();
  const time = /(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|secs?|seconds?)\b/i.exec(rest);
  if (time) {
    const ms = Number(time[1]) * (/^ms|milli/i.test(time[2]!) ? 1 : 1000);
    return [{ kind: 'wait', ms: Math.min(30_000, Math.round(ms)) }];
  }
  const until =
    /^(?:for|until|till)\s+(?:the\s+)?(.+?)(?:\s+(?:to\s+)?(?:appears?|shows? up|is (?:shown|visible|displayed)|loads?|load|is loaded|to load))?$/i.exec(
      rest,
    );
  if (until && !/^(?:page|site|content|it)$/i.test(until[1]!.trim())) {
    return [{ kind: 'wait', text: textOf(clause, until[1]!) }];
  }
  return [{ kind: 'wait', ms: 1000 }];
});

export const parsePress = clauseParser((clause) => {
  if (/^(?:enter|return)$/i.test(clause.head)) return [{ kind: 'press', key: 'Enter', modifiers: [] }];
  const times = /\s+(?:(twice)|(thrice)|(\d+|two|three|four|five) times)$/i.exec(clause.head);
  const head = times ? clause.head.slice(0, times.index) : clause.head;
  const match = /^(?:press|hit|push|tap|strike)\s+(.+?)(?:\s+(?:in|on|into)\s+(?:the\s+)?(.+))?$/i.exec(head);
  const key = match ? parseKey(textOf(clause, match[1]!)) : undefined;
  if (!key) return undefined;
  const count = times ? (times[1] ? 2 : times[2] ? 3 : (AMOUNTS[times[3]!.toLowerCase()] ?? Number(times[3]))) : 1;
  return Array.from({ length: Math.min(count, 10) }, (): SubStep => ({ kind: 'press', ...key }));
});

export const parseSubmit = clauseParser(({ head }) =>
  /^submit(?:\s+(?:the|this)\s+(?:form|search|page))?(?:\s+it)?$/i.test(head) ? [{ kind: 'submit' }] : undefined,
);

export const parseHover = clauseParser((clause) => {
  const match = /^(?:hover|mouse|move the (?:mouse|pointer|cursor))\s+(?:over|on|to|onto)?\s*(.+)$/i.exec(clause.head);
  return match ? [{ kind: 'hover', target: parseTarget(clause, match[1]!) }] : undefined;
});
