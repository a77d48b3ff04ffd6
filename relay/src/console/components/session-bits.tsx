import { Badge } from './badge';
import { CopyButton } from './copy-button';

/** "ses_n0_Ab12…9xYz": enough to tell sessions apart; the full id is copied and shown on hover. */
export function shortId(id: string): string {
  return id.length > 18 ? `${id.slice(0, 11)}…${id.slice(-4)}` : id;
}

export function SessionId({ id }: { id: string }) {
  return (
    <span class="id-cell">
      <code title={id}>{shortId(id)}</code>
      <CopyButton text={id} label={`Copy the session id ${id}`} />
    </span>
  );
}

export function ModeBadge({ local }: { local: boolean }) {
  return local ? <Badge tone="warn">local</Badge> : <Badge tone="info">remote</Badge>;
}
