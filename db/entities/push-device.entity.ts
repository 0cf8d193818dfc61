import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique, type Relation } from 'typeorm';
import { PushApp } from './push-app.entity';

/** A device of an app, upserted by (app, device token) on every launch. */
@Entity({ name: 'push_devices' })
@Check('push_devices_platform_check', `platform IN ('Android','iOS')`)
@Unique('push_devices_app_id_device_token_key', ['appId', 'deviceToken'])
@Index('push_devices_app_platform', ['appId', 'platform'])
@Index('push_devices_app_user', ['appId', 'userId'])
@Index('push_devices_app_created', ['appId', 'createdAt', 'id'])
@Index('push_devices_metadata', { synchronize: false }) // USING gin (device_metadata): segment filters
export class PushDevice {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'push_devices_pkey' })
  id!: string;

  @Column({ name: 'app_id', type: 'uuid' })
  appId!: string;

  @ManyToOne(() => PushApp, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'app_id', foreignKeyConstraintName: 'push_devices_app_id_fkey' })
  app?: Relation<PushApp>;

  @Column({ name: 'device_token', type: 'text' })
  deviceToken!: string;

  @Column({ type: 'text' })
  platform!: 'Android' | 'iOS';

  @Column({ name: 'user_id', type: 'text', nullable: true })
  userId!: string | null;

  @Column({ name: 'device_metadata', type: 'jsonb', default: () => "'{}'" })
  deviceMetadata!: Record<string, unknown>;

  @Column({ name: 'is_active', type: 'boolean', default: true })
  isActive!: boolean;

  @Column({ name: 'last_seen_at', type: 'timestamptz', default: () => 'now()' })
  lastSeenAt!: Date;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
