import type { SkillInfo } from '@tandem/shared';
import { useState } from 'preact/hooks';
import { api } from '../api';
import { Badge } from '../components/badge';
import { ConfirmButton, Modal } from '../components/dialog';
import { Field, FormError, TextArea } from '../components/field';
import { GuardrailsCard } from '../components/guardrails-card';
import { Empty, Loaded, Page } from '../components/page';
import { SkillPreview } from '../components/skill-preview';
import { ago, dateTime } from '../time';
import { toast } from '../toasts';
import { useResource } from '../use-resource';
import { text, useSubmit } from '../use-submit';

const PATTERN_HINT = 'example.com (and its subdomains), *.example.com (subdomains only), or * for every site.';

/** The web profile: plain-words rules the agent reads on matching sites, and the hard guardrails. */
export function SkillsPage() {
  const skills = useResource(() => api.skills());
  const add = useSubmit(async (fields, form) => {
    await api.createSkill({
      host_pattern: text(fields, 'host_pattern'),
      rule: text(fields, 'rule'),
      enabled: fields.get('enabled') === 'on',
    });
    form.reset();
    toast('Skill added: the agent reads it from its next step on those sites.');
    await skills.reload();
  });
  return (
    <Page
      title="Skills"
      intro="Your web profile: rules in plain words that the agent reads on the sites they name, and hard limits it cannot pass."
    >
      <div class="grid-2 grid-wide-first">
        <article>
          <h2>Add a rule</h2>
          <form onSubmit={add.onSubmit} noValidate>
            <Field
              label="Sites"
              name="host_pattern"
              required
              placeholder="shop.example"
              spellcheck={false}
              autocapitalize="off"
              error={add.error?.fields.host_pattern}
              hint={PATTERN_HINT}
            />
            <TextArea
              label="Rule"
              name="rule"
              required
              rows={3}
              placeholder='Never tick "Keep me signed in".'
              error={add.error?.fields.rule}
            />
            <label class="switch-label">
              <input type="checkbox" name="enabled" defaultChecked />
              Enabled
            </label>
            <FormError error={add.error} />
            <button type="submit" aria-busy={add.busy} disabled={add.busy}>
              Add rule
            </button>
          </form>
        </article>
        <SkillPreview />
      </div>
      <section aria-labelledby="rules-title">
        <h2 id="rules-title">Rules</h2>
        <Loaded resource={skills}>
          {({ skills: list }) =>
            list.length === 0 ? (
              <Empty title="No rules yet">
                <p>Add one above: e.g. for shop.example, "Compare prices before adding to the cart."</p>
              </Empty>
            ) : (
              <ul class="rule-list">
                {list.map((skill) => (
                  <SkillRow key={skill.id} skill={skill} onChange={skills.reload} />
                ))}
              </ul>
            )
          }
        </Loaded>
      </section>
      <GuardrailsCard />
    </Page>
  );
}

function SkillRow({ skill, onChange }: { skill: SkillInfo; onChange: () => Promise<void> }) {
  const [editing, setEditing] = useState(false);
  const toggle = useSubmit(async () => undefined);
  const setEnabled = (enabled: boolean) =>
    toggle.run(async () => {
      await api.updateSkill(skill.id, { enabled });
      toast(enabled ? 'Rule enabled.' : 'Rule disabled: kept, but the agent no longer reads it.');
      await onChange();
    });
  return (
    <li class={`rule ${skill.enabled ? '' : 'rule-off'}`}>
      <div class="rule-main">
        <div class="rule-head">
          <code class="pattern">{skill.host_pattern}</code>
          {!skill.enabled && <Badge>disabled</Badge>}
          <span class="muted small-text" title={dateTime(skill.updated_at)}>
            changed {ago(skill.updated_at)}
          </span>
        </div>
        <p class="rule-text">{skill.rule}</p>
        <FormError error={toggle.error} />
      </div>
      <div class="rule-actions">
        <label class="switch-label">
          <input
            type="checkbox"
            role="switch"
            checked={skill.enabled}
            aria-checked={skill.enabled}
            disabled={toggle.busy}
            aria-label={`Enabled: ${skill.host_pattern}: ${skill.rule}`}
            onChange={(e) => void setEnabled(e.currentTarget.checked)}
          />
          <span aria-hidden="true">Enabled</span>
        </label>
        <button
          type="button"
          class="secondary outline small"
          aria-label={`Edit the rule for ${skill.host_pattern}`}
          onClick={() => setEditing(true)}
        >
          Edit
        </button>
        <ConfirmButton
          label={`Delete the rule for ${skill.host_pattern}`}
          title="Delete this rule?"
          confirm="Delete"
          done="Rule deleted."
          onConfirm={async () => {
            await api.deleteSkill(skill.id);
            await onChange();
          }}
        >
          <p>
            The rule for <code>{skill.host_pattern}</code> is deleted; disable it instead to keep it for later.
          </p>
        </ConfirmButton>
      </div>
      <Modal open={editing} title="Edit the rule" onClose={() => setEditing(false)}>
        <EditSkill
          skill={skill}
          onSaved={async () => {
            setEditing(false);
            toast('Rule saved.');
            await onChange();
          }}
        />
      </Modal>
    </li>
  );
}

function EditSkill({ skill, onSaved }: { skill: SkillInfo; onSaved: () => Promise<void> }) {
  const save = useSubmit(async (fields) => {
    await api.updateSkill(skill.id, { host_pattern: text(fields, 'host_pattern'), rule: text(fields, 'rule') });
    await onSaved();
  });
  return (
    <form onSubmit={save.onSubmit} noValidate>
      <Field
        label="Sites"
        name="host_pattern"
        required
        defaultValue={skill.host_pattern}
        spellcheck={false}
        error={save.error?.fields.host_pattern}
        hint={PATTERN_HINT}
      />
      <TextArea label="Rule" name="rule" required rows={4} defaultValue={skill.rule} error={save.error?.fields.rule} />
      <FormError error={save.error} />
      <footer>
        <button type="submit" aria-busy={save.busy} disabled={save.busy}>
          Save
        </button>
      </footer>
    </form>
  );
}
