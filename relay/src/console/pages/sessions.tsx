import type { ConsoleSession } from '@tandem/shared';
import { api } from '../api';
import { StateBadge, StatusBadge } from '../components/badge';
import { ConfirmButton } from '../components/dialog';
import { Empty, Loaded, Page } from '../components/page';
import { ModeBadge, SessionId } from '../components/session-bits';
import { Link } from '../router';
import { sameOrigin } from '../screenshots';
import { ago, dateTime, seconds } from '../time';
import { useResource, useVisiblePolling } from '../use-resource';

const REFRESH_MS = 4000;
const STATES = ['running', 'idle', 'parked', 'ended'] as const;

export function SessionsPage() {
  const sessions = useResource(() => api.sessions());
  useVisiblePolling(() => void sessions.reload(), REFRESH_MS);
  return (
    <Page
      title="Sessions"
      intro="Live sessions and those that ended recently. This page refreshes itself every few seconds."
    >
      <Loaded resource={sessions}>
        {({ sessions: list }) => (
          <>
            <Summary list={list} />
            {list.length === 0 ? (
              <Empty title="No sessions yet">
                <p>
                  A session starts when a client calls the API, e.g. <code>POST /v1/web/browse</code> with an API key
                  from the <Link href="/console/api-keys">API keys</Link> page. It shows here at once.
                </p>
              </Empty>
            ) : (
              <SessionTable list={list} onChange={sessions.reload} />
            )}
          </>
        )}
      </Loaded>
    </Page>
  );
}

function Summary({ list }: { list: ConsoleSession[] }) {
  return (
    <ul class="stats" aria-label="Sessions by state">
      {STATES.map((state) => (
        <li key={state} class="stat">
          <span class="stat-value">{list.filter((s) => s.state === state).length}</span>
          <span class="stat-label">{state}</span>
        </li>
      ))}
    </ul>
  );
}

function SessionTable({ list, onChange }: { list: ConsoleSession[]; onChange: () => Promise<void> }) {
  return (
    <div class="table-wrap">
      <table class="sessions">
        <thead>
          <tr>
            <th scope="col">
              <span class="visually-hidden">Screenshot</span>
            </th>
            <th scope="col">Session</th>
            <th scope="col">Page</th>
            <th scope="col">Age</th>
            <th scope="col">Idle</th>
            <th scope="col">State</th>
            <th scope="col">Last step</th>
            <th scope="col">
              <span class="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {list.map((s) => (
            <SessionRow key={s.session_id} session={s} onChange={onChange} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function SessionRow({ session: s, onChange }: { session: ConsoleSession; onChange: () => Promise<void> }) {
  const href = `/console/sessions/${encodeURIComponent(s.session_id)}`;
  const shot = sameOrigin(s.screenshot);
  return (
    <tr>
      <td class="thumb-cell">
        {shot ? (
          <Link href={href} tabIndex={-1} aria-hidden="true">
            <img class="thumb" src={shot} alt="" loading="lazy" />
          </Link>
        ) : (
          <span class="thumb thumb-empty" aria-hidden="true" />
        )}
      </td>
      <td>
        <SessionId id={s.session_id} />
        <div class="sub">
          <ModeBadge local={s.local} />
        </div>
      </td>
      <td class="url-cell">{s.url ? <span title={s.url}>{s.url}</span> : <span class="muted">no page yet</span>}</td>
      <td class="nowrap" title={dateTime(s.created_at)}>
        {ago(s.created_at)}
      </td>
      <td class="nowrap">{s.state === 'ended' ? <span class="muted">—</span> : seconds(s.idle_seconds ?? 0)}</td>
      <td>
        <StateBadge state={s.state} />
        {s.end_reason && <div class="sub muted">{s.end_reason.replaceAll('_', ' ')}</div>}
      </td>
      <td>
        {s.status ? <StatusBadge status={s.status} /> : <span class="muted">no steps</span>}
        <div class="sub muted">
          {s.steps} {s.steps === 1 ? 'step' : 'steps'}
        </div>
      </td>
      <td class="actions">
        <Link href={href} class="button-link small" aria-label={`Open the timeline of ${s.session_id}`}>
          Timeline
        </Link>
        {s.state !== 'ended' && <CloseSession id={s.session_id} onClosed={onChange} />}
      </td>
    </tr>
  );
}

/** The Close button of a session: asks first, then closes it as DELETE /v1/web/session/{id} does. */
export function CloseSession({ id, onClosed }: { id: string; onClosed: () => unknown }) {
  return (
    <ConfirmButton
      label={`Close the session ${id}`}
      title="Close this session?"
      confirm="Close"
      done="Session closed."
      onConfirm={async () => {
        await api.closeSession(id);
        await onClosed();
      }}
    >
      <p>
        Its browser is closed at once and an operation running on it is stopped. Calls naming <code>{id}</code> get 404
        from now on.
      </p>
    </ConfirmButton>
  );
}
