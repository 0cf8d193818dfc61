import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique, type Relation } from 'typeorm';
import { PushApp } from './push-app.entity';
import { PushDevice } from './push-device.entity';
import { PushSend } from './push-send.entity';

/**
 * One (send, device) pair: its id is the `notificationId` clients track, carried in the
 * push payload. The recorded facts analytics count: queued, then sent or failed, then
 * delivered and opened as the device reports. A deleted device leaves its facts (device_id null).
 */
@Entity({ name: 'push_notifications' })
@Check('push_notifications_platform_check', `platform IN ('Android','iOS')`)
@Check('push_notifications_status_check', `status IN ('queued','sent','failed','cancelled')`)
@Unique('push_notifications_send_id_position_key', ['sendId', 'position'])
@Index('push_notifications_app_queued', ['appId', 'queuedAt'])
@Index('push_notifications_device', ['deviceId'])
export class PushNotification {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'push_notifications_pkey' })
  id!: string;

  @Column({ name: 'send_id', type: 'uuid' })
  sendId!: string;

  @ManyToOne(() => PushSend, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'send_id', foreignKeyConstraintName: 'push_notifications_send_id_fkey' })
  send?: Relation<PushSend>;

  @Column({ name: 'app_id', type: 'uuid' })
  appId!: string;

  @ManyToOne(() => PushApp, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'app_id', foreignKeyConstraintName: 'push_notifications_app_id_fkey' })
  app?: Relation<PushApp>;

  @Column({ name: 'device_id', type: 'uuid', nullable: true })
  deviceId!: string | null;

  @ManyToOne(() => PushDevice, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'device_id', foreignKeyConstraintName: 'push_notifications_device_id_fkey' })
  device?: Relation<PushDevice> | null;

  /** the device's place in the accepted deviceIds: the workflow pages sends by it */
  @Column({ type: 'integer' })
  position!: number;

  @Column({ type: 'text' })
  platform!: 'Android' | 'iOS';

  /** its own text (an event trigger firing's, rendered at fire time); null: the send's */
  @Column({ type: 'text', nullable: true })
  title!: string | null;

  @Column({ type: 'text', nullable: true })
  body!: string | null;

  @Column({ type: 'text', default: 'queued' })
  /** `cancelled`: a cancelled campaign's row that was never pushed */
  status!: 'queued' | 'sent' | 'failed' | 'cancelled';

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @Column({ name: 'queued_at', type: 'timestamptz', default: () => 'now()' })
  queuedAt!: Date;

  @Column({ name: 'sent_at', type: 'timestamptz', nullable: true })
  sentAt!: Date | null;

  @Column({ name: 'failed_at', type: 'timestamptz', nullable: true })
  failedAt!: Date | null;

  @Column({ name: 'delivered_at', type: 'timestamptz', nullable: true })
  deliveredAt!: Date | null;

  @Column({ name: 'opened_at', type: 'timestamptz', nullable: true })
  openedAt!: Date | null;
}
