import type { PutSecretRequest, Removed, SecretInfo, SecretsResponse } from '@tandem/shared';
import { NotFound } from '../errors';
import { clip } from '../quote';
import type { SecretEntry } from '../store/account-secrets';

export interface SecretServiceDeps {
  secrets: {
    set(accountId: string, name: string, value: string, hostPattern: string | null): Promise<void>;
    list(accountId: string): Promise<SecretEntry[]>;
    remove(accountId: string, name: string): Promise<boolean>;
  };
}

const secretInfo = (s: SecretEntry): SecretInfo => ({
  name: s.name,
  host_pattern: s.hostPattern,
  created_at: new Date(s.createdAt).toISOString(),
  updated_at: new Date(s.updatedAt).toISOString(),
});

/** The account's secret store, write-only from the outside: names and sites are listed, values never. */
export class SecretService {
  constructor(private readonly deps: SecretServiceDeps) {}

  async list(accountId: string): Promise<SecretsResponse> {
    return { secrets: (await this.deps.secrets.list(accountId)).map(secretInfo) };
  }

  async put(accountId: string, name: string, request: PutSecretRequest): Promise<SecretInfo> {
    // `*` is every site, which the store spells as no pattern.
    const pattern = request.host_pattern === '*' ? null : request.host_pattern;
    await this.deps.secrets.set(accountId, name, request.value, pattern);
    const saved = (await this.deps.secrets.list(accountId)).find((s) => s.name === name);
    if (!saved) throw new Error(`secret ${name} vanished right after being saved`);
    return secretInfo(saved);
  }

  async remove(accountId: string, name: string): Promise<Removed> {
    if (!(await this.deps.secrets.remove(accountId, name))) {
      throw new NotFound(`This account has no secret named ${clip(name, 64)}. List them to see the names.`);
    }
    return { id: name, removed: true };
  }
}
