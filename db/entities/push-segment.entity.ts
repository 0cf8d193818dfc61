import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { PushApp } from './push-app.entity';

/** A named device filter of an app; `filter` is compiled to one parameterised query when counted or sent to. */
@Entity({ name: 'push_segments' })
@Index('push_segments_app', ['appId', 'createdAt'])
export class PushSegment {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'push_segments_pkey' })
  id!: string;

  @Column({ name: 'app_id', type: 'uuid' })
  appId!: string;

  @ManyToOne(() => PushApp, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'app_id', foreignKeyConstraintName: 'push_segments_app_id_fkey' })
  app?: Relation<PushApp>;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text', nullable: true })
  description!: string | null;

  @Column({ type: 'jsonb' })
  filter!: unknown;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
