import { Column, Entity, PrimaryColumn, Unique } from 'typeorm';

/** A dashboard user of the push service; the email is stored lower-cased, the password as an argon2id hash. */
@Entity({ name: 'push_users' })
@Unique('push_users_email_key', ['email'])
export class PushUser {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'push_users_pkey' })
  id!: string;

  @Column({ type: 'text' })
  email!: string;

  @Column({ type: 'text' })
  name!: string;

  /** null: an approved trial owner who has not used the setup link yet (cannot log in) */
  @Column({ name: 'password_hash', type: 'text', nullable: true })
  passwordHash!: string | null;

  /** operators of the trial approval flow */
  @Column({ name: 'is_super_admin', type: 'boolean', default: false })
  isSuperAdmin!: boolean;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
