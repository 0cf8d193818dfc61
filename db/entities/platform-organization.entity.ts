import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A platform API customer (docs/platform.md): it owns workspaces and users. */
@Entity({ name: 'platform_organizations' })
export class PlatformOrganization {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'platform_organizations_pkey' })
  id!: string;

  @Column({ type: 'text' })
  name!: string;

  /** per-token reads a minute for enterprise customers (npm run admin -- set-limits); null: the spec's */
  @Column({ name: 'read_limit', type: 'integer', nullable: true })
  readLimit!: number | null;

  /** per-token writes a minute for enterprise customers; null: the spec's */
  @Column({ name: 'write_limit', type: 'integer', nullable: true })
  writeLimit!: number | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
