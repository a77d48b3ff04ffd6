import type { StepHistoryEntry } from '@tandem/shared';
import { useState } from 'preact/hooks';
import { sameOrigin } from '../screenshots';
import { count, dateTime, millis } from '../time';
import { Badge, StatusBadge } from './badge';
import { Modal } from './dialog';

/** A session's steps, oldest first: what was asked, what the agent meant to do, what it did and saw. */
export function StepTimeline({ steps }: { steps: StepHistoryEntry[] }) {
  const [enlarged, setEnlarged] = useState<StepHistoryEntry>();
  return (
    <>
      <ol class="timeline" aria-label="Steps">
        {steps.map((step, i) => (
          <Step
            key={step.step}
            step={step}
            newTask={i === 0 || steps[i - 1]?.cmd !== step.cmd}
            onEnlarge={setEnlarged}
          />
        ))}
      </ol>
      <Modal
        open={enlarged !== undefined}
        title={enlarged ? `After step ${enlarged.step}` : ''}
        onClose={() => setEnlarged(undefined)}
      >
        {enlarged?.screenshot && (
          <figure class="enlarged">
            <img src={sameOrigin(enlarged.screenshot)} alt={`The page after step ${enlarged.step}`} />
            <figcaption class="url-cell">{enlarged.url}</figcaption>
          </figure>
        )}
      </Modal>
    </>
  );
}

function Step({
  step,
  newTask,
  onEnlarge,
}: {
  step: StepHistoryEntry;
  newTask: boolean;
  onEnlarge: (step: StepHistoryEntry) => void;
}) {
  const shot = sameOrigin(step.screenshot);
  return (
    <li class={`step step-${step.status.toLowerCase()}`}>
      <span class="step-dot" aria-hidden="true" />
      <article class="step-card" aria-label={`Step ${step.step}`}>
        <header class="step-head">
          <strong>Step {step.step}</strong>
          <StatusBadge status={step.status} />
          <span class="step-meta">
            <time dateTime={step.at}>{dateTime(step.at)}</time> · {millis(step.duration_ms)} ·{' '}
            {count(step.prompt_tokens + step.completion_tokens)} tokens
            <span class="visually-hidden">
              {' '}
              ({count(step.prompt_tokens)} in, {count(step.completion_tokens)} out)
            </span>
          </span>
        </header>
        <div class="step-body">
          <div class="step-text">
            {newTask && (
              <p class="step-line">
                <span class="step-label">Command</span>
                <span class="step-cmd">{step.cmd || <em class="muted">(continue)</em>}</span>
              </p>
            )}
            {step.goal && (
              <p class="step-line">
                <span class="step-label">Goal</span>
                <span>{step.goal}</span>
              </p>
            )}
            {step.actions.length > 0 && (
              <ol class="step-actions" aria-label={`Actions of step ${step.step}`}>
                {step.actions.map((action, i) => (
                  <li key={i}>
                    <code class="action-name">
                      {action.action}
                      {action.index !== undefined ? ` [${action.index}]` : ''}
                    </code>
                    <Badge tone={action.code === 'ok' || action.code === 'navigation' ? 'ok' : 'warn'}>
                      {action.code}
                    </Badge>
                    <span class="action-message">{action.message}</span>
                  </li>
                ))}
              </ol>
            )}
            {step.message && (
              <p class="step-line">
                <span class="step-label">Result</span>
                <span>{step.message}</span>
              </p>
            )}
            <p class="step-line">
              <span class="step-label">URL</span>
              <span class="url-cell" title={step.url}>
                {step.url}
              </span>
            </p>
          </div>
          {shot && (
            <button
              type="button"
              class="shot"
              aria-label={`Enlarge the screenshot of step ${step.step}`}
              onClick={() => onEnlarge(step)}
            >
              <img src={shot} alt={`The page after step ${step.step}`} loading="lazy" />
            </button>
          )}
        </div>
      </article>
    </li>
  );
}
