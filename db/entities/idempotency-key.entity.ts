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

  /** the lease of the request in flight: once it lapses, a retry with the key takes over */
  @Column({ name: 'locked_until', type: 'timestamptz', nullable: true })
  lockedUntil!: Date | null;

  /** which claim holds the lease (a request that lost it must not commit its work) */
  @Column({ name: 'lease_token', type: 'text', nullable: true })
  leaseToken!: string | null;

  /** what the first request created, written in the transaction that created it */
  @Column({ name: 'resource_id', type: 'text', nullable: true })
  resourceId!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
