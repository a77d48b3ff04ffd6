import type {
  ApiKeyInfo,
  ApiKeysResponse,
  CreatedApiKey,
  DevicesResponse,
  Removed,
  SkillInfo,
  SkillPreviewResponse,
  SkillsResponse,
} from '@tandem/shared';
import { BadRequest, NotFound } from '../errors';
import type { DevicePresence } from '../gateway/presence';
import { clip } from '../quote';
import type { ApiKeyRecord } from '../store/api-keys';
import type { DeviceRecord } from '../store/devices';
import type { Skill } from '../store/skills';

export interface ConsoleDeps {
  apiKeys: {
    create(accountId: string, name: string): Promise<{ key: string; record: ApiKeyRecord }>;
    list(accountId: string): Promise<ApiKeyRecord[]>;
    revoke(accountId: string, id: string): Promise<boolean>;
  };
  skills: {
    add(accountId: string, hostPattern: string, rule: string): Promise<Skill>;
    list(accountId: string): Promise<Skill[]>;
    applying(accountId: string, url: string): Promise<Skill[]>;
    remove(accountId: string, id: string): Promise<boolean>;
  };
  devices: {
    list(accountId: string): Promise<DeviceRecord[]>;
    revoke(accountId: string, id: string): Promise<boolean>;
  };
  /** Which devices hold a socket now (the extension gateway's presence). */
  presence: { forAccount(accountId: string): DevicePresence[] };
  /** Closes a revoked device's socket at once and ends its sessions (the gateway). */
  disconnect(deviceId: string): void;
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
  created_at: iso(s.createdAt),
});

const gone = (what: string, id: string) =>
  new NotFound(
    `This account has no ${what} ${clip(id, 60)} (it may have been removed already). List them to see the ids.`,
  );

/** The admin API's use cases: API keys, skills and extension devices of the caller's account. */
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
  async revokeApiKey(accountId: string, id: string, callerKeyId: string): Promise<Removed> {
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

  async addSkill(accountId: string, hostPattern: string, rule: string): Promise<SkillInfo> {
    return skillInfo(await this.deps.skills.add(accountId, hostPattern, rule));
  }

  async deleteSkill(accountId: string, id: string): Promise<Removed> {
    if (!(await this.deps.skills.remove(accountId, id))) throw gone('skill', id);
    return { id, removed: true };
  }

  /** The skills the agent reads on `url`, by the agent's own matching. */
  async previewSkills(accountId: string, url: string): Promise<SkillPreviewResponse> {
    return { url, skills: (await this.deps.skills.applying(accountId, url)).map(skillInfo) };
  }

  async devices(accountId: string): Promise<DevicesResponse> {
    const presence = new Map(this.deps.presence.forAccount(accountId).map((p) => [p.deviceId, p]));
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
    this.deps.disconnect(id);
    return { id, removed: true };
  }
}
