import type { ComponentChildren } from 'preact';

export type Tone = 'ok' | 'warn' | 'bad' | 'info' | 'neutral' | 'live';

export function Badge({ tone = 'neutral', children }: { tone?: Tone; children: ComponentChildren }) {
  return <span class={`badge badge-${tone}`}>{children}</span>;
}

const STATE_TONES: Record<string, Tone> = { running: 'live', idle: 'ok', parked: 'info', ended: 'neutral' };
const STATUS_TONES: Record<string, Tone> = { DONE: 'ok', CONTINUE: 'info', ASK_USER: 'warn', FAILED: 'bad' };

/** A session's state: running, idle, parked, ended. */
export function StateBadge({ state }: { state: string }) {
  return <Badge tone={STATE_TONES[state] ?? 'neutral'}>{state}</Badge>;
}

/** A step's status: CONTINUE, DONE, ASK_USER, FAILED. */
export function StatusBadge({ status }: { status: string }) {
  return <Badge tone={STATUS_TONES[status] ?? 'neutral'}>{status.replace('_', ' ').toLowerCase()}</Badge>;
}
