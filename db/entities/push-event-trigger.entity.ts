import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { PushApp } from './push-app.entity';

/** An app's event trigger: a fired `eventName` whose conditions hold sends title/body to the device after `delayMinutes`. */
@Entity({ name: 'push_event_triggers' })
@Check('push_event_triggers_delay_check', `delay_minutes BETWEEN 0 AND 10080`)
@Index('push_event_triggers_app', ['appId', 'createdAt'])
@Index('push_event_triggers_app_event', ['appId', 'eventName'])
export class PushEventTrigger {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'push_event_triggers_pkey' })
  id!: string;

  @Column({ name: 'app_id', type: 'uuid' })
  appId!: string;

  @ManyToOne(() => PushApp, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'app_id', foreignKeyConstraintName: 'push_event_triggers_app_id_fkey' })
  app?: Relation<PushApp>;

  @Column({ type: 'text' })
  name!: string;

  @Column({ name: 'event_name', type: 'text' })
  eventName!: string;

  @Column({ name: 'delay_minutes', type: 'integer' })
  delayMinutes!: number;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  conditions!: unknown;

  @Column({ type: 'text' })
  title!: string;

  @Column({ type: 'text' })
  body!: string;

  @Column({ type: 'boolean', default: true })
  enabled!: boolean;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
