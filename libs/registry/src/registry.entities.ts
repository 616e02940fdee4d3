import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

/** Where a registry row came from: the shipped catalog, PROVIDERS_FILE, or the admin API. */
export type RegistrySource = 'catalog' | 'file' | 'admin';

@Entity({ name: 'providers' })
export class ProviderEntity {
  @PrimaryColumn('text') slug!: string;
  @Column('text') protocol!: string;
  @Column({ name: 'base_url', type: 'text', nullable: true }) baseUrl!: string | null;
  @Column({ name: 'api_key_env', type: 'text', nullable: true }) apiKeyEnv!: string | null;
  @Column({ name: 'api_key', type: 'text', nullable: true }) apiKey!: string | null;
  @Column({ name: 'data_collection', type: 'text' }) dataCollection!: string;
  @Column('boolean') zdr!: boolean;
  @Column('boolean') builtin!: boolean;
  @Column('boolean') disabled!: boolean;
  @Column('text') source!: RegistrySource;
  @Column({ type: 'text', nullable: true }) platform!: string | null;
  @Column({ name: 'platform_options', type: 'jsonb', nullable: true }) platformOptions!: Record<string, string> | null;
}

@Entity({ name: 'models' })
export class ModelEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column('text') name!: string;
  @Column({ name: 'display_name', type: 'text' }) displayName!: string;
  @Column('text') author!: string;
  @Column('text') description!: string;
  @Column('boolean') distillable!: boolean;
  @Column('text') kind!: string;
  @Column('text') source!: RegistrySource;
  @Column({ name: 'router_prior', type: 'jsonb', nullable: true }) routerPrior!: Record<string, number> | null;
  @Column({ name: 'router_prior_source', type: 'text', nullable: true }) routerPriorSource!: RegistrySource | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt!: Date;
}

@Entity({ name: 'endpoints' })
export class EndpointEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'model_id', type: 'integer' }) modelId!: number;
  @Column('text') provider!: string;
  @Column({ name: 'upstream_model', type: 'text' }) upstreamModel!: string;
  @Column('text') quantization!: string;
  @Column({ name: 'context_length', type: 'integer' }) contextLength!: number;
  @Column({ name: 'max_completion_tokens', type: 'integer' }) maxCompletionTokens!: number;
  @Column({ name: 'supports_tools', type: 'boolean' }) supportsTools!: boolean;
  @Column({ name: 'supports_vision', type: 'boolean' }) supportsVision!: boolean;
  @Column({ name: 'supports_reasoning', type: 'boolean' }) supportsReasoning!: boolean;
  @Column('jsonb') pricing!: Record<string, string>;
  @Column({ type: 'integer', nullable: true }) dimensions!: number | null;
  @Column({ name: 'custom_dimensions', type: 'boolean' }) customDimensions!: boolean;
  @Column('boolean') disabled!: boolean;
  @Column('text') source!: RegistrySource;
}
