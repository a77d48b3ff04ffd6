import type { ConsoleSession, StepHistoryEntry } from '@tandem/shared';
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { Badge, StateBadge } from '../components/badge';
import { Empty, ErrorNote, Loading, Page } from '../components/page';
import { ModeBadge, SessionId, shortId } from '../components/session-bits';
import { StepTimeline } from '../components/step-timeline';
import { Link } from '../router';
import { ago, dateTime } from '../time';
import { useResource, useVisiblePolling } from '../use-resource';
import { CloseSession } from './sessions';

const REFRESH_MS = 5000;

function withStep(steps: StepHistoryEntry[], step: StepHistoryEntry): StepHistoryEntry[] {
  return [...steps.filter((s) => s.step !== step.step), step].sort((a, b) => a.step - b.step);
}

/** One session: its state, and its step timeline, live over Server-Sent Events while it runs. */
export function SessionPage({ id }: { id: string }) {
  const header = useResource(async () => (await api.sessions()).sessions.find((s) => s.session_id === id), [id]);
  const recorded = useResource(() => api.steps(id), [id]);
  const [steps, setSteps] = useState<StepHistoryEntry[]>([]);
  const [streaming, setStreaming] = useState(false);
  useVisiblePolling(() => void header.reload(), REFRESH_MS);

  useEffect(() => {
    if (recorded.data) setSteps((now) => recorded.data!.steps.reduce(withStep, now));
  }, [recorded.data]);

  const live = header.data !== undefined && header.data.state !== 'ended';
  useEffect(() => {
    if (!live) return;
    // Same origin, so the console cookie goes along; the steps so far come first, then each new one.
    const source = new EventSource(api.liveStepsUrl(id));
    source.onopen = () => setStreaming(true);
    source.onmessage = (event: MessageEvent<string>) => {
      if (event.data === '[DONE]') {
        source.close();
        setStreaming(false);
        return;
      }
      const chunk = JSON.parse(event.data) as
        | { type: 'step'; step: StepHistoryEntry }
        | { type: 'end'; reason: string };
      if (chunk.type === 'step') setSteps((now) => withStep(now, chunk.step));
      else void header.reload();
    };
    source.onerror = () => {
      if (source.readyState === EventSource.CLOSED) setStreaming(false);
    };
    return () => {
      source.close();
      setStreaming(false);
    };
  }, [id, live]);

  return (
    <Page
      title={`Session ${shortId(id)}`}
      intro={
        <>
          <Link href="/console">Sessions</Link> / <code>{id}</code>
        </>
      }
      actions={header.data && header.data.state !== 'ended' ? <CloseSession id={id} onClosed={header.reload} /> : null}
    >
      {header.data && <SessionFacts session={header.data} streaming={streaming} />}
      <section aria-labelledby="timeline-title" class="timeline-section">
        <div class="section-head">
          <h2 id="timeline-title">Step timeline</h2>
          {streaming ? (
            <Badge tone="live">
              <span class="pulse" aria-hidden="true" /> live
            </Badge>
          ) : null}
        </div>
        {recorded.error && !recorded.data ? (
          <ErrorNote error={recorded.error} retry={recorded.reload} />
        ) : !recorded.data ? (
          <Loading />
        ) : steps.length === 0 ? (
          <Empty title="No steps yet">
            <p>
              {live
                ? 'Steps show here as the agent runs them: send a browse or a step to this session.'
                : 'This session ended without an agent step (it was created, read or closed only).'}
            </p>
          </Empty>
        ) : (
          <StepTimeline steps={steps} />
        )}
      </section>
    </Page>
  );
}

function SessionFacts({ session: s, streaming }: { session: ConsoleSession; streaming: boolean }) {
  return (
    <article class="facts-card">
      <dl class="facts facts-row">
        <div>
          <dt>State</dt>
          <dd>
            <StateBadge state={s.state} />{' '}
            {s.end_reason && <span class="muted">{s.end_reason.replaceAll('_', ' ')}</span>}
          </dd>
        </div>
        <div>
          <dt>Mode</dt>
          <dd>
            <ModeBadge local={s.local} />
          </dd>
        </div>
        <div>
          <dt>Id</dt>
          <dd>
            <SessionId id={s.session_id} />
          </dd>
        </div>
        <div>
          <dt>Started</dt>
          <dd title={dateTime(s.created_at)}>{ago(s.created_at)}</dd>
        </div>
        <div>
          <dt>{s.ended_at ? 'Ended' : 'Last used'}</dt>
          <dd title={dateTime(s.ended_at ?? s.last_used_at)}>{ago(s.ended_at ?? s.last_used_at)}</dd>
        </div>
        <div class="wide">
          <dt>Page</dt>
          <dd class="url-cell">{s.url ? <span title={s.url}>{s.url}</span> : <span class="muted">none</span>}</dd>
        </div>
      </dl>
      <p class="visually-hidden" aria-live="polite">
        {streaming ? 'The timeline is live: new steps appear as they finish.' : ''}
      </p>
    </article>
  );
}
