import { Injectable } from '@nestjs/common';
import { DataSource, type Repository } from 'typeorm';
import { ApiKeyEntity } from './api-key.entity';
import type { ApiKeyRecord, NewApiKey, StoredApiKey } from './api-key.record';

/** The only place that touches the api_keys table. */
@Injectable()
export class ApiKeyRepository {
  private readonly repo: Repository<ApiKeyEntity>;

  constructor(dataSource: DataSource) {
    this.repo = dataSource.getRepository(ApiKeyEntity);
  }

  async insert(key: NewApiKey): Promise<ApiKeyRecord> {
    const entity = this.repo.create({ ...key, createdAt: new Date(), revokedAt: null, lastUsedAt: null });
    await this.repo.insert(entity);
    return toRecord(entity);
  }

  async findByLookupId(lookupId: string): Promise<StoredApiKey | null> {
    const entity = await this.repo.findOneBy({ lookupId });
    return entity ? { ...toRecord(entity), secretHash: entity.secretHash } : null;
  }

  async findById(id: string): Promise<ApiKeyRecord | null> {
    const entity = await this.repo.findOneBy({ id });
    return entity ? toRecord(entity) : null;
  }

  async list(): Promise<ApiKeyRecord[]> {
    const rows = await this.repo.find({ order: { createdAt: 'ASC' } });
    return rows.map(toRecord);
  }

  /** Marks a key revoked; returns false when there is no such key. Revoking twice keeps the first time. */
  async revoke(id: string): Promise<ApiKeyRecord | null> {
    await this.repo
      .createQueryBuilder()
      .update()
      .set({ revokedAt: () => 'COALESCE(revoked_at, now())' })
      .where('id = :id', { id })
      .execute();
    return this.findById(id);
  }

  async touch(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.repo.query('UPDATE api_keys SET last_used_at = now() WHERE id = ANY($1::uuid[])', [ids]);
  }
}

function toRecord(entity: ApiKeyEntity): ApiKeyRecord {
  return {
    id: entity.id,
    lookupId: entity.lookupId,
    name: entity.name,
    plan: entity.plan,
    rpm: entity.rpm,
    tpm: entity.tpm,
    routeKnob: entity.routeKnob,
    createdAt: entity.createdAt,
    expiresAt: entity.expiresAt,
    revokedAt: entity.revokedAt,
    lastUsedAt: entity.lastUsedAt,
  };
}
