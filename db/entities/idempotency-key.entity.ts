import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** The first response to a POST with an `Idempotency-Key`, replayed for the same key and body. */
@Entity({ name: 'idempotency_keys' })
@Index('idempotency_created', ['createdAt'])
export class IdempotencyKey {
  @PrimaryColumn({ name: 'api_key_id', type: 'text', primaryKeyConstraintName: 'idempotency_keys_pkey' })
  apiKeyId!: string;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'idempotency_keys_pkey' })
  key!: string;

  @Column({ name: 'request_hash', type: 'text' })
  requestHash!: string;

  /** null while the first request is in flight */
  @Column({ name: 'status_code', type: 'integer', nullable: true })
  statusCode!: number | null;

  @Column({ type: 'jsonb', nullable: true })
  response!: unknown;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
