import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ApiKeyRepository } from './api-key.repository';
import type { ApiKeyRecord, KeyChange } from './api-key.record';
import { KeyCacheService } from './key-cache.service';
import { generateApiKey } from './key-secret';

/** A new key: a name and a plan, and any of the fields a key change may set. */
export interface CreateKeyInput extends KeyChange {
  name: string;
  plan: string;
}

/** Issues and revokes keys; the secret exists only in the return value of `create`. */
@Injectable()
export class ApiKeyService {
  constructor(
    private readonly repository: ApiKeyRepository,
    private readonly cache: KeyCacheService,
  ) {}

  async create(input: CreateKeyInput): Promise<{ record: ApiKeyRecord; key: string }> {
    const generated = generateApiKey();
    const record = await this.repository.insert({
      id: randomUUID(),
      lookupId: generated.lookupId,
      secretHash: generated.secretHash,
      name: input.name,
      plan: input.plan,
      rpm: input.rpm ?? null,
      tpm: input.tpm ?? null,
      routeKnob: input.routeKnob ?? null,
      expiresAt: input.expiresAt ?? null,
      teamId: input.teamId ?? null,
      budget: input.budget ?? null,
      endUserBudget: input.endUserBudget ?? null,
      models: input.models ?? null,
      cache: input.cache ?? null,
      promptCache: input.promptCache ?? null,
      guardrails: input.guardrails ?? null,
    });
    // A replica may remember this lookup id as unknown (someone tried it); clear that everywhere.
    await this.cache.invalidate(generated.lookupId);
    return { record, key: generated.key };
  }

  list(): Promise<ApiKeyRecord[]> {
    return this.repository.list();
  }

  get(id: string): Promise<ApiKeyRecord | null> {
    return this.repository.findById(id);
  }

  /** Applies a change and drops the key from every replica's cache (in effect within a second). */
  async update(id: string, change: KeyChange): Promise<ApiKeyRecord | null> {
    const record = await this.repository.update(id, change);
    if (record) await this.cache.invalidate(record.lookupId);
    return record;
  }

  countByPlan(plan: string): Promise<number> {
    return this.repository.countByPlan(plan);
  }

  async revoke(id: string): Promise<ApiKeyRecord | null> {
    const record = await this.repository.revoke(id);
    if (record) await this.cache.invalidate(record.lookupId);
    return record;
  }
}
