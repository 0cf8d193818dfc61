import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { PushCompany } from './push-company.entity';

/** An app of a company. FCM and APNs credentials are sealed with the secret box, never returned. */
@Entity({ name: 'push_apps' })
@Check('push_apps_platform_check', `platform IN ('Android','iOS')`)
@Index('push_apps_company', ['companyId', 'createdAt'])
export class PushApp {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'push_apps_pkey' })
  id!: string;

  @Column({ name: 'company_id', type: 'uuid' })
  companyId!: string;

  @ManyToOne(() => PushCompany, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'company_id', foreignKeyConstraintName: 'push_apps_company_id_fkey' })
  company?: Relation<PushCompany>;

  @Column({ type: 'text' })
  name!: string;

  @Column({ name: 'bundle_id', type: 'text' })
  bundleId!: string;

  @Column({ type: 'text' })
  platform!: 'Android' | 'iOS';

  /** the service-account JSON, sealed */
  @Column({ name: 'fcm_credentials', type: 'text', nullable: true })
  fcmCredentials!: string | null;

  /** {keyId, teamId, bundleId, p8KeyContent, useSandbox}, sealed */
  @Column({ name: 'apns_credentials', type: 'text', nullable: true })
  apnsCredentials!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
