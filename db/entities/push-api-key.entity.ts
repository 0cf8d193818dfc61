import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique, type Relation } from 'typeorm';
import { PushApp } from './push-app.entity';

/** An app's API key (`Authorization: ApiKey …`): only the SHA-256 of the whole key is stored. */
@Entity({ name: 'push_api_keys' })
@Unique('push_api_keys_key_hash_key', ['keyHash'])
@Index('push_api_keys_app', ['appId', 'createdAt'])
export class PushApiKey {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'push_api_keys_pkey' })
  id!: string;

  @Column({ name: 'app_id', type: 'uuid' })
  appId!: string;

  @ManyToOne(() => PushApp, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'app_id', foreignKeyConstraintName: 'push_api_keys_app_id_fkey' })
  app?: Relation<PushApp>;

  @Column({ type: 'text' })
  name!: string;

  /** the key's leading characters, shown in lists */
  @Column({ type: 'text' })
  prefix!: string;

  @Column({ name: 'key_hash', type: 'text' })
  keyHash!: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt!: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;
}
