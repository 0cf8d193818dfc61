import type { Counts } from '../../../db/repositories/push-analytics';
import { rateOf } from '../../../domain/push/analytics.rules';
import type { CampaignRecord } from '../../../domain/push/types';
import type { CampaignAnalyticsResponse, CampaignResponse } from './schema';
import { iso, isoOrNull } from '../../kit/dates';


/** The Campaign object. */
export function presentCampaign(c: CampaignRecord): CampaignResponse {
  return {
    id: c.id,
    appId: c.appId,
    name: c.name,
    title: c.title,
    body: c.body,
    imageUrl: c.imageUrl,
    deepLink: c.deepLink,
    customData: c.customData,
    targetType: c.targetType,
    segmentId: c.segmentId,
    status: c.status,
    scheduledAt: isoOrNull(c.scheduledAt),
    recipients: c.recipients,
    failureReason: c.failureReason,
    createdAt: iso(c.createdAt),
    updatedAt: iso(c.updatedAt),
    startedAt: isoOrNull(c.startedAt),
    finishedAt: isoOrNull(c.finishedAt),
  };
}

/** The spec's campaign analytics: totals over both platforms, rates of what was sent. */
export function presentAnalytics(campaignId: string, by: { android: Counts; ios: Counts }): CampaignAnalyticsResponse {
  const sum = (k: keyof Counts) => by.android[k] + by.ios[k];
  const sent = sum('sent');
  return {
    campaignId,
    sent,
    delivered: sum('delivered'),
    opened: sum('opened'),
    failed: sum('failed'),
    deliveryRate: rateOf(sum('delivered'), sent),
    openRate: rateOf(sum('opened'), sent),
    platformBreakdown: { android: by.android, ios: by.ios },
  };
}
