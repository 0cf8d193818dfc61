import type { JWK } from 'jose';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** RS256 keys that sign access tokens (api/ticketing/auth/signing-keys.ts). */
@Entity({ name: 'signing_keys' })
export class SigningKey {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'signing_keys_pkey' })
  kid!: string;

  @Column({ name: 'private_jwk', type: 'jsonb' })
  privateJwk!: JWK;

  @Column({ name: 'public_jwk', type: 'jsonb' })
  publicJwk!: JWK;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
