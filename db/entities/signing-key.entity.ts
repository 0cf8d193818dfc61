import type { JWK } from 'jose';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** RS256 keys that sign access tokens (api/kit/auth/signing-keys.ts). */
@Entity({ name: 'signing_keys' })
export class SigningKey {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'signing_keys_pkey' })
  kid!: string;

  /** the private JWK as JSON, sealed with the secret box (context `signing_keys:<kid>`) */
  @Column({ name: 'private_key_box', type: 'text' })
  privateKeyBox!: string;

  @Column({ name: 'public_jwk', type: 'jsonb' })
  publicJwk!: JWK;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
