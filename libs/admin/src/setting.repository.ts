import { Injectable } from '@nestjs/common';
import { DataSource, type Repository } from 'typeorm';
import { SettingEntity } from './setting.entity';

@Injectable()
export class SettingRepository {
  private readonly repo: Repository<SettingEntity>;

  constructor(dataSource: DataSource) {
    this.repo = dataSource.getRepository(SettingEntity);
  }

  async get(key: string): Promise<string | null> {
    const row = await this.repo.findOneBy({ key });
    return row?.value ?? null;
  }

  /** Sets a value only if none exists; returns the value that is stored afterwards. */
  async setIfAbsent(key: string, value: string): Promise<string> {
    await this.repo.query('INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [key, value]);
    return (await this.get(key)) ?? value;
  }
}
