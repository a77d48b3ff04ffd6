import { type ClauseInput, clauseParser, stripArticle, textOf } from './grammar';
import type { SubStep } from './substeps';

/** What "it" stands for in a mail or chat app: the message that is open. */
const MESSAGE = String.raw`(?:(?:it|them|him|her|this|that|the)\s+)?(?:(?:e-?mail|message|mail|post|one)\s+)?`;
const FORWARD = new RegExp(String.raw`^forward\s+${MESSAGE}to\s+(.+)$`, 'i');
const REPLY = new RegExp(
  String.raw`^(?:reply|respond|answer)\s+(?:to\s+${MESSAGE}(?:[\w'’-]+\s+)?)?(?:with|saying|and say|and write)\s+(?:the\s+(?:text|message|words?)\s+)?(.+)$`,
  'i',
);

/**
 * "forward that email to Ada": the open message's Forward control, the recipient into the field that
 * asks for one ("to"), then Send. "reply to them with the text 'Soon.'": Reply, the text into the
 * message box, then Send. Mail and chat apps share these words and this order.
 */
export const parseMessage = clauseParser((clause: ClauseInput): SubStep[] | undefined => {
  const head = clause.head.trim().replace(/[.!]$/, '');
  const forward = FORWARD.exec(head);
  if (forward) {
    return [
      { kind: 'click', target: { text: 'forward' } },
      { kind: 'fill', entry: { value: textOf(clause, stripArticle(forward[1]!)), field: 'to' } },
      { kind: 'click', target: { text: 'send' } },
    ];
  }
  const reply = REPLY.exec(head);
  if (reply) {
    return [
      { kind: 'click', target: { text: 'reply' } },
      { kind: 'fill', entry: { value: textOf(clause, reply[1]!.trim()) } },
      { kind: 'click', target: { text: 'send' } },
    ];
  }
  return undefined;
});
