import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique, type Relation } from 'typeorm';
import { PushTrialRequest } from './push-trial-request.entity';
import { PushUser } from './push-user.entity';

/**
 * A link that lets an approved owner set the password: only the SHA-256 of the token is
 * kept (lib/setup-tokens.ts). Open while not used, voided (a newer one) or expired.
 */
@Entity({ name: 'push_setup_tokens' })
@Unique('push_setup_tokens_token_hash_key', ['tokenHash'])
@Check('push_setup_tokens_purpose_check', `purpose IN ('email','link')`)
@Index('push_setup_tokens_open', ['userId'], { where: 'used_at IS NULL AND voided_at IS NULL AND expired_at IS NULL' })
@Index('push_setup_tokens_request', ['trialRequestId'])
export class PushSetupToken {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'push_setup_tokens_pkey' })
  id!: string;

  @Column({ name: 'trial_request_id', type: 'uuid' })
  trialRequestId!: string;

  @ManyToOne(() => PushTrialRequest, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'trial_request_id', foreignKeyConstraintName: 'push_setup_tokens_trial_request_id_fkey' })
  trialRequest?: Relation<PushTrialRequest>;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @ManyToOne(() => PushUser, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'push_setup_tokens_user_id_fkey' })
  user?: Relation<PushUser>;

  @Column({ name: 'token_hash', type: 'text' })
  tokenHash!: string;

  @Column({ type: 'text' })
  purpose!: 'email' | 'link';

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt!: Date | null;

  @Column({ name: 'voided_at', type: 'timestamptz', nullable: true })
  voidedAt!: Date | null;

  @Column({ name: 'expired_at', type: 'timestamptz', nullable: true })
  expiredAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
