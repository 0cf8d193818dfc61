import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique, type Relation } from 'typeorm';
import { PushUser } from './push-user.entity';

/**
 * An opaque refresh token, stored as its SHA-256. Each use marks it used and issues the
 * next of the same family; a used token presented again revokes the whole family.
 */
@Entity({ name: 'push_refresh_tokens' })
@Unique('push_refresh_tokens_token_hash_key', ['tokenHash'])
@Index('push_refresh_tokens_family', ['familyId'])
@Index('push_refresh_tokens_user', ['userId'])
export class PushRefreshToken {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'push_refresh_tokens_pkey' })
  id!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @ManyToOne(() => PushUser, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'push_refresh_tokens_user_id_fkey' })
  user?: Relation<PushUser>;

  @Column({ name: 'family_id', type: 'uuid' })
  familyId!: string;

  @Column({ name: 'token_hash', type: 'text' })
  tokenHash!: string;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt!: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
