import type { AgentInfo, CreateAgentRequest, SkillInfo } from '@tandem/shared';
import { useState } from 'preact/hooks';
import { ApiError, api } from '../api';
import { Badge } from '../components/badge';
import { CopyButton } from '../components/copy-button';
import { ConfirmButton, Modal } from '../components/dialog';
import { Field, FormError, Select, TextArea } from '../components/field';
import { Empty, Loaded, Page } from '../components/page';
import { toast } from '../toasts';
import { useResource } from '../use-resource';
import { text, useSubmit } from '../use-submit';

/** Agent profiles: what `agent_id` names in browse, create, step and retrieve. */
export function AgentsPage() {
  const data = useResource(async () => {
    const [agents, skills] = await Promise.all([api.agents(), api.skills()]);
    return { agents: agents.agents, skills: skills.skills };
  });
  const [editing, setEditing] = useState<AgentInfo | 'new'>();
  return (
    <Page
      title="Agents"
      intro={
        <>
          Profiles that bundle standing instructions, a default mode and temperature, a step limit and which skills
          apply. Name one with <code>"agent_id"</code> in a browse, step or retrieve call.
        </>
      }
      actions={
        <button type="button" onClick={() => setEditing('new')}>
          New agent
        </button>
      }
    >
      <Loaded resource={data}>
        {({ agents, skills }) => (
          <>
            {agents.length === 0 ? (
              <Empty title="No agents yet">
                <p>Make one to give a script's calls the same instructions and limits every time.</p>
              </Empty>
            ) : (
              <ul class="card-list">
                {agents.map((agent) => (
                  <AgentCard
                    key={agent.id}
                    agent={agent}
                    skills={skills}
                    onEdit={() => setEditing(agent)}
                    onDeleted={data.reload}
                  />
                ))}
              </ul>
            )}
            <Modal
              open={editing !== undefined}
              title={editing === 'new' ? 'New agent' : 'Edit the agent'}
              onClose={() => setEditing(undefined)}
            >
              <AgentForm
                agent={editing === 'new' ? undefined : editing}
                skills={skills}
                onSaved={async (saved) => {
                  setEditing(undefined);
                  toast(`Agent "${saved.name}" saved.`);
                  await data.reload();
                }}
              />
            </Modal>
          </>
        )}
      </Loaded>
    </Page>
  );
}

function AgentCard({
  agent,
  skills,
  onEdit,
  onDeleted,
}: {
  agent: AgentInfo;
  skills: SkillInfo[];
  onEdit: () => void;
  onDeleted: () => Promise<void>;
}) {
  const chosen = agent.skill_ids && skills.filter((s) => agent.skill_ids?.includes(s.id));
  return (
    <li>
      <article class="agent">
        <header class="agent-head">
          <h3>{agent.name}</h3>
          <span class="id-cell">
            <code title="agent_id">{agent.id}</code>
            <CopyButton text={agent.id} label={`Copy the agent_id of ${agent.name}`} />
          </span>
        </header>
        {agent.instructions ? (
          <p class="agent-instructions">{agent.instructions}</p>
        ) : (
          <p class="muted">No standing instructions.</p>
        )}
        <dl class="facts facts-row">
          <div>
            <dt>Mode</dt>
            <dd>{agent.default_mode ?? 'relay default'}</dd>
          </div>
          <div>
            <dt>Temperature</dt>
            <dd>{agent.temperature ?? "model's"}</dd>
          </div>
          <div>
            <dt>Max steps</dt>
            <dd>{agent.max_steps ?? "the call's"}</dd>
          </div>
          <div class="wide">
            <dt>Skills</dt>
            <dd>
              {chosen === null ? (
                <Badge tone="info">all matching</Badge>
              ) : chosen.length === 0 ? (
                <span class="muted">none</span>
              ) : (
                chosen.map((s) => (
                  <code key={s.id} class="pattern" title={s.rule}>
                    {s.host_pattern}
                  </code>
                ))
              )}
            </dd>
          </div>
        </dl>
        <footer class="card-actions">
          <button type="button" class="secondary outline small" aria-label={`Edit ${agent.name}`} onClick={onEdit}>
            Edit
          </button>
          <ConfirmButton
            label={`Delete ${agent.name}`}
            title={`Delete "${agent.name}"?`}
            confirm="Delete"
            done={`Agent "${agent.name}" deleted.`}
            onConfirm={async () => {
              await api.deleteAgent(agent.id);
              await onDeleted();
            }}
          >
            <p>
              Calls naming <code>{agent.id}</code> are refused (400) from then on.
            </p>
          </ConfirmButton>
        </footer>
      </article>
    </li>
  );
}

/** A number field's value: null when left empty (the API's "not set"). */
function optionalNumber(fields: FormData, name: string): number | null {
  const value = text(fields, name);
  if (!value) return null;
  const number = Number(value);
  if (!Number.isFinite(number))
    throw new ApiError(0, `${name.replace('_', ' ')}: a number, or empty.`, { [name]: 'A number, or empty.' });
  return number;
}

function AgentForm({
  agent,
  skills,
  onSaved,
}: {
  agent: AgentInfo | undefined;
  skills: SkillInfo[];
  onSaved: (agent: AgentInfo) => Promise<void>;
}) {
  const [allSkills, setAllSkills] = useState(!agent || agent.skill_ids === null);
  const save = useSubmit(async (fields) => {
    const mode = text(fields, 'default_mode');
    const body: CreateAgentRequest = {
      name: text(fields, 'name'),
      instructions: text(fields, 'instructions'),
      default_mode: mode === 'fast' || mode === 'standard' ? mode : null,
      temperature: optionalNumber(fields, 'temperature'),
      max_steps: optionalNumber(fields, 'max_steps'),
      skill_ids: allSkills ? null : fields.getAll('skill_ids').map(String),
    };
    await onSaved(agent ? await api.updateAgent(agent.id, body) : await api.createAgent(body));
  });
  const errors = save.error?.fields ?? {};
  return (
    <form onSubmit={save.onSubmit} noValidate>
      <Field label="Name" name="name" required defaultValue={agent?.name} error={errors.name} />
      <TextArea
        label="Instructions"
        name="instructions"
        rows={4}
        defaultValue={agent?.instructions}
        error={errors.instructions}
        hint="Read with every task this agent runs."
      />
      <div class="grid-3">
        <Select
          label="Default mode"
          name="default_mode"
          defaultValue={agent?.default_mode ?? ''}
          error={errors.default_mode}
        >
          <option value="">Relay default</option>
          <option value="fast">fast</option>
          <option value="standard">standard</option>
        </Select>
        <Field
          label="Temperature"
          name="temperature"
          type="number"
          step="0.1"
          min="0"
          max="2"
          defaultValue={agent?.temperature?.toString() ?? ''}
          placeholder="model's"
          error={errors.temperature}
        />
        <Field
          label="Max steps"
          name="max_steps"
          type="number"
          step="1"
          min="1"
          defaultValue={agent?.max_steps?.toString() ?? ''}
          placeholder="the call's"
          error={errors.max_steps}
        />
      </div>
      <fieldset>
        <legend>Skills that apply</legend>
        <label>
          <input type="radio" name="skills_mode" checked={allSkills} onChange={() => setAllSkills(true)} />
          All matching: every enabled rule whose sites match the page
        </label>
        <label>
          <input type="radio" name="skills_mode" checked={!allSkills} onChange={() => setAllSkills(false)} />
          Only the ones chosen here
        </label>
        {!allSkills && (
          <div class="checklist">
            {skills.length === 0 && <p class="muted">No skills yet: add them on the Skills page.</p>}
            {skills.map((s) => (
              <label key={s.id}>
                <input
                  type="checkbox"
                  name="skill_ids"
                  value={s.id}
                  defaultChecked={agent?.skill_ids?.includes(s.id) ?? false}
                />
                <code class="pattern">{s.host_pattern}</code> {s.rule}
              </label>
            ))}
          </div>
        )}
      </fieldset>
      <FormError error={save.error} />
      <footer>
        <button type="submit" aria-busy={save.busy} disabled={save.busy}>
          {agent ? 'Save' : 'Make agent'}
        </button>
      </footer>
    </form>
  );
}
