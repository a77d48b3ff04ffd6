import type {
  ApiKeyInfo,
  ApiKeysResponse,
  CreatedApiKey,
  CreateSkillRequest,
  DevicesResponse,
  Guardrails as GuardrailsBody,
  GuardrailsResponse,
  PairingCode,
  Removed,
  SkillInfo,
  SkillPreviewResponse,
  SkillsResponse,
  UpdateSkillRequest,
} from '@tandem/shared';
import { BadRequest, NotFound } from '../errors';
import type { DevicePresence } from '../gateway/presence';
import { clip } from '../quote';
import type { ApiKeyRecord } from '../store/api-keys';
import type { DeviceRecord } from '../store/devices';
import type { Guardrails } from '../store/guardrails';
import type { Skill, SkillChanges } from '../store/skills';

export interface ConsoleDeps {
  apiKeys: {
    create(accountId: string, name: string): Promise<{ key: string; record: ApiKeyRecord }>;
    list(accountId: string): Promise<ApiKeyRecord[]>;
    revoke(accountId: string, id: string): Promise<boolean>;
  };
  skills: {
    add(accountId: string, hostPattern: string, rule: string, enabled?: boolean): Promise<Skill>;
    list(accountId: string): Promise<Skill[]>;
    update(accountId: string, id: string, changes: SkillChanges): Promise<Skill | undefined>;
    applying(accountId: string, url: string): Promise<Skill[]>;
    remove(accountId: string, id: string): Promise<boolean>;
  };
  guardrails: {
    get(accountId: string): Promise<Guardrails>;
    set(accountId: string, rules: Guardrails): Promise<void>;
  };
  pairingCodes: { create(accountId: string): Promise<{ code: string; expiresAt: number }> };
  devices: {
    list(accountId: string): Promise<DeviceRecord[]>;
    revoke(accountId: string, id: string): Promise<boolean>;
  };
  /** Which devices hold a socket now, to this relay or another (the gateway's and the cluster's presence). */
  presence: { forAccount(accountId: string): DevicePresence[] | Promise<DevicePresence[]> };
  /** Closes a revoked device's socket at once and ends its sessions (on whichever relay holds it). */
  disconnect(deviceId: string): void | Promise<void>;
}

const iso = (ms: number) => new Date(ms).toISOString();

const keyInfo = (r: ApiKeyRecord): ApiKeyInfo => ({
  id: r.id,
  name: r.name,
  prefix: r.prefix,
  created_at: iso(r.createdAt),
  last_used_at: r.lastUsedAt === null ? null : iso(r.lastUsedAt),
});

const skillInfo = (s: Skill): SkillInfo => ({
  id: s.id,
  host_pattern: s.hostPattern,
  rule: s.rule,
  enabled: s.enabled,
  created_at: iso(s.createdAt),
  updated_at: iso(s.updatedAt),
});

const guardrailsInfo = (rules: Guardrails): GuardrailsResponse => ({
  blocked_hosts: rules.blockedHosts,
  allowed_hosts: rules.allowedHosts,
  file_uploads: 'blocked',
});

/** A list without repeats, in the order given. */
const distinct = (list: readonly string[]) => [...new Set(list)];

const gone = (what: string, id: string) =>
  new NotFound(
    `This account has no ${what} ${clip(id, 60)} (it may have been removed already). List them to see the ids.`,
  );

/** The admin API's use cases: API keys, skills, guardrails and extension devices of the caller's account. */
export class ConsoleService {
  constructor(private readonly deps: ConsoleDeps) {}

  async createApiKey(accountId: string, name: string): Promise<CreatedApiKey> {
    const { key, record } = await this.deps.apiKeys.create(accountId, name);
    return { ...keyInfo(record), key };
  }

  async apiKeys(accountId: string): Promise<ApiKeysResponse> {
    return { api_keys: (await this.deps.apiKeys.list(accountId)).map(keyInfo) };
  }

  /** `callerKeyId`: the key of the request itself, which is not revoked this way (a script would lock itself out). */
  async revokeApiKey(accountId: string, id: string, callerKeyId: string | undefined): Promise<Removed> {
    if (id === callerKeyId) {
      throw new BadRequest(
        'This is the key this request was made with: revoke it with another key of the account, so this call is not your last.',
      );
    }
    if (!(await this.deps.apiKeys.revoke(accountId, id))) throw gone('API key', id);
    return { id, removed: true };
  }

  async skills(accountId: string): Promise<SkillsResponse> {
    return { skills: (await this.deps.skills.list(accountId)).map(skillInfo) };
  }

  async addSkill(accountId: string, request: CreateSkillRequest): Promise<SkillInfo> {
    return skillInfo(await this.deps.skills.add(accountId, request.host_pattern, request.rule, request.enabled));
  }

  async updateSkill(accountId: string, id: string, request: UpdateSkillRequest): Promise<SkillInfo> {
    const skill = await this.deps.skills.update(accountId, id, {
      hostPattern: request.host_pattern,
      rule: request.rule,
      enabled: request.enabled,
    });
    if (!skill) throw gone('skill', id);
    return skillInfo(skill);
  }

  async deleteSkill(accountId: string, id: string): Promise<Removed> {
    if (!(await this.deps.skills.remove(accountId, id))) throw gone('skill', id);
    return { id, removed: true };
  }

  /** The skills the agent reads on `url`, by the agent's own matching. */
  async previewSkills(accountId: string, url: string): Promise<SkillPreviewResponse> {
    return { url, skills: (await this.deps.skills.applying(accountId, url)).map(skillInfo) };
  }

  async guardrails(accountId: string): Promise<GuardrailsResponse> {
    return guardrailsInfo(await this.deps.guardrails.get(accountId));
  }

  async setGuardrails(accountId: string, request: GuardrailsBody): Promise<GuardrailsResponse> {
    const rules = { blockedHosts: distinct(request.blocked_hosts), allowedHosts: distinct(request.allowed_hosts) };
    await this.deps.guardrails.set(accountId, rules);
    return guardrailsInfo(rules);
  }

  async pairingCode(accountId: string): Promise<PairingCode> {
    const { code, expiresAt } = await this.deps.pairingCodes.create(accountId);
    return { code, expires_at: iso(expiresAt) };
  }

  async devices(accountId: string): Promise<DevicesResponse> {
    const presence = new Map((await this.deps.presence.forAccount(accountId)).map((p) => [p.deviceId, p]));
    const devices = await this.deps.devices.list(accountId);
    return {
      devices: devices.map((d) => ({
        id: d.id,
        name: d.name,
        created_at: iso(d.createdAt),
        last_seen_at: d.lastSeenAt === null ? null : iso(d.lastSeenAt),
        connected: presence.get(d.id)?.connected ?? false,
        api_enabled: presence.get(d.id)?.apiEnabled ?? false,
      })),
    };
  }

  async revokeDevice(accountId: string, id: string): Promise<Removed> {
    if (!(await this.deps.devices.revoke(accountId, id))) throw gone('device', id);
    await this.deps.disconnect(id);
    return { id, removed: true };
  }
}
