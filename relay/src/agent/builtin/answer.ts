import type { Snapshot } from '@tandem/shared';
import { isHeading, plainText, readableLines, stripHeading } from './page-text';
import { MAX_CLAUSE_CHARS } from './split';
import { containsWords, textScore, words } from './text';

/** What a question asks for: an attribute ("price") of a subject ("Bolt Drill"); either may be missing. */
export interface QuestionParts {
  attribute?: string | undefined;
  subject?: string | undefined;
}

const PRICE = /(?:[$€£]\s?\d[\d,]*(?:\.\d+)?|\d[\d,]*(?:\.\d+)?\s?(?:€|eur|usd|gbp|dollars?|euros?))/i;
const LEAD =
  /^(?:please\s+)?(?:tell me|find out|let me know|give me|report|read(?: out)?|show me|check|find|get|look up|note|say)?\s*(?:what|which|who)?\s*(?:is|are|was|'s|s)?\s*/i;

/** Splits a question into the attribute it asks for and the thing it asks about. */
export function questionParts(question: string): QuestionParts {
  if (question.length > MAX_CLAUSE_CHARS) return {};
  const q = question.replace(/\?+$/, '').trim();
  const cost = /^(?:how much (?:is|are|does|do|costs?|for)|what does|what do)\s+(.+?)(?:\s+cost)?$/i.exec(q);
  if (cost && /how much|cost/i.test(q)) return { attribute: 'price', subject: clean(cost[1]!) };
  const many = /^how many\s+(.+?)\s+(?:are|is|does|do|have|has)\s+(?:there\s+)?(?:in\s+)?(.+)$/i.exec(q);
  if (many) return { attribute: /stock/i.test(many[2]!) ? 'stock' : many[2]!, subject: clean(many[1]!) };
  const possessive = /^(?:what(?:'s| is| are)?\s+)(?:the\s+)?(.+?)'s\s+(.+)$/i.exec(q);
  if (possessive) return { attribute: clean(possessive[2]!), subject: clean(possessive[1]!) };
  const body = q.replace(LEAD, '');
  const of = /^(?:the\s+)?(.+?)\s+(?:of|for|on)\s+(.+)$/i.exec(body);
  if (of) return { attribute: clean(of[1]!), subject: clean(of[2]!) };
  return { subject: clean(body) };
}

function clean(text: string): string {
  return text
    .replace(/^(?:the|a|an)\s+/i, '')
    .replace(/\s+(?:on (?:this|the) page|here)$/i, '')
    .trim();
}

/** "the main heading", "the headline", "the h1": the page's top heading, which is not its title. */
const HEADING =
  /^(?:(?:main|top|first|biggest|page'?s?|primary|largest)\s+)?(?:heading|headline|header|h1)(?:\s+(?:of|on)\s+(?:the|this)\s+page)?$/i;
const TITLE =
  /^(?:(?:the\s+)?(?:page|site|website|tab|document)(?:'s)?\s+)?title(?:\s+of\s+(?:the|this)\s+(?:page|site|website|tab))?$|^(?:this\s+)?(?:page|site|website)$/i;

/** The first top-level heading, else the first heading of any level. */
function mainHeading(lines: string[]): string | undefined {
  const top = lines.find((line) => /^#\s/.test(line)) ?? lines.find(isHeading);
  return top ? plainText(top) : undefined;
}

/** Answers a question from the page text, or undefined when the page does not say. */
export function answerQuestion(question: string, snapshot: Snapshot): string | undefined {
  // A question is one clause; anything longer is no question this can answer (and stays cheap to refuse).
  if (question.length > MAX_CLAUSE_CHARS) return undefined;
  const parts = questionParts(question);
  const lines = readableLines(snapshot.text);
  // "the main heading", "the title", and "the title / main heading of the page" alike.
  const ofPage =
    parts.attribute && TITLE.test(parts.subject ?? '') ? parts.attribute : parts.attribute ? '' : parts.subject;
  if (ofPage && HEADING.test(ofPage)) {
    const heading = mainHeading(lines);
    return heading ? `The main heading is "${heading}".` : `The page has no heading; its title is "${snapshot.title}".`;
  }
  if (ofPage && (TITLE.test(ofPage) || /^(?:title|name)$/i.test(ofPage)))
    return `The page is titled "${snapshot.title}".`;
  const subjects = parts.subject?.split(/\s*,\s*(?:and\s+)?|\s+and\s+/).filter(Boolean) ?? [];
  if (subjects.length === 0) return attributeAnywhere(lines, parts.attribute);
  const answers = subjects.map((subject) => answerOne(lines, subject, parts.attribute));
  if (answers.some((a) => a === undefined)) return undefined;
  return answers.join(' ');
}

function answerOne(lines: string[], subject: string, attribute: string | undefined): string | undefined {
  const fromTable = tableCell(lines, subject, attribute);
  if (fromTable) return `${fromTable.row}: ${attribute ? `${attribute} ` : ''}${fromTable.cell}.`;
  const at = bestLine(lines, subject);
  if (at < 0) return undefined;
  const window = [lines[at]!];
  for (let i = at + 1; i < lines.length && window.length < 5 && !isHeading(lines[i]!); i++) window.push(lines[i]!);
  const name = plainText(lines[at]!);
  if (!attribute) return `${name}: ${window.slice(1).map(plainText).join(' ') || name}`;
  const value = attributeIn(window, attribute);
  return value ? `The ${attribute} of ${name} is ${value}.` : undefined;
}

function attributeAnywhere(lines: string[], attribute: string | undefined): string | undefined {
  if (!attribute) return undefined;
  return attributeIn(lines, attribute);
}

/** The value of an attribute in some lines: a price, "Capacity: 1.7 litres", or the segment naming it. */
function attributeIn(lines: string[], attribute: string): string | undefined {
  if (/^(?:price|cost|amount|total)$/i.test(attribute)) {
    for (const line of lines) {
      const price = PRICE.exec(line);
      if (price) return price[0];
    }
  }
  for (const line of lines) {
    const labelled = new RegExp(`\\b${escapeRegExp(attribute)}s?\\s*[:=]\\s*([^.·|;]+)`, 'i').exec(line);
    if (labelled) return labelled[1]!.trim();
  }
  for (const line of lines) {
    const segment = line.split(/\s*[·|;]\s*|\.\s+/).find((s) => containsWords(s, attribute));
    if (segment) return segment.trim();
  }
  return undefined;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The line that names the subject best, headings first; -1 when none does. */
function bestLine(lines: string[], subject: string): number {
  let best = -1;
  let bestScore = 0.5;
  lines.forEach((line, i) => {
    if (!containsWords(line, subject)) return;
    const score = textScore(subject, stripHeading(line)) + (isHeading(line) ? 0.2 : 0);
    if (score > bestScore) [best, bestScore] = [i, score];
  });
  return best;
}

/** A table row ("a | b | c") naming the subject, and its cell under the header naming the attribute. */
function tableCell(lines: string[], subject: string, attribute: string | undefined) {
  const header = lines.findIndex((line) => line.includes(' | '));
  if (header < 0 || !attribute) return undefined;
  const columns = lines[header]!.split(' | ');
  const column = columns.findIndex((c) => textScore(attribute, c) >= 0.7);
  if (column < 0) return undefined;
  for (const line of lines.slice(header + 1)) {
    const cells = line.split(' | ');
    if (cells.length !== columns.length || !containsWords(cells.join(' '), subject)) continue;
    if (words(subject).length && textScore(subject, cells[0]!) < 0.5 && !containsWords(cells[0]!, subject)) continue;
    return { row: cells[0]!, cell: cells[column]! };
  }
  return undefined;
}
