// Every table, one entity each. A new table: a hand-written migration in db/migrations
// and an entity here, in the same commit (docs/data.md); the entities test fails otherwise.
import { Agent } from './agent.entity';
import { ApiKey } from './api-key.entity';
import { Event } from './event.entity';
import { IdempotencyKey } from './idempotency-key.entity';
import { Message } from './message.entity';
import { Notification } from './notification.entity';
import { Organization } from './organization.entity';
import { Player } from './player.entity';
import { PlatformOrganization } from './platform-organization.entity';
import { PlatformWorkspace } from './platform-workspace.entity';
import { PlatformChannel } from './platform-channel.entity';
import { PlatformUser } from './platform-user.entity';
import { PlatformMembership } from './platform-membership.entity';
import { PlatformActivationToken } from './platform-activation-token.entity';
import { PlatformToken } from './platform-token.entity';
import { PlatformTicket } from './platform-ticket.entity';
import { PlatformTicketReply } from './platform-ticket-reply.entity';
import { PlatformTicketStepEntry } from './platform-ticket-step.entity';
import { PlatformAutomation } from './platform-automation.entity';
import { PushCompany } from './push-company.entity';
import { PushUser } from './push-user.entity';
import { PushMembership } from './push-membership.entity';
import { PushRefreshToken } from './push-refresh-token.entity';
import { PushApp } from './push-app.entity';
import { PushApiKey } from './push-api-key.entity';
import { PushDevice } from './push-device.entity';
import { PushSegment } from './push-segment.entity';
import { PushEventTrigger } from './push-event-trigger.entity';
import { PushTriggerFiring } from './push-trigger-firing.entity';
import { PushSend } from './push-send.entity';
import { PushNotification } from './push-notification.entity';
import { PushCampaign } from './push-campaign.entity';
import { PushTrialRequest } from './push-trial-request.entity';
import { PushSetupToken } from './push-setup-token.entity';
import { PushAuditEvent } from './push-audit-event.entity';
import { SigningKey } from './signing-key.entity';
import { TicketAudit } from './ticket-audit.entity';
import { TicketStep } from './ticket-step.entity';
import { TicketUsage } from './ticket-usage.entity';
import { Ticket } from './ticket.entity';
import { WebhookAttempt } from './webhook-attempt.entity';
import { WebhookDelivery } from './webhook-delivery.entity';
import { WebhookEndpoint } from './webhook-endpoint.entity';
import { Workspace } from './workspace.entity';
import { WorkflowStart } from './workflow-start.entity';

export {
  Agent,
  ApiKey,
  Event,
  IdempotencyKey,
  Message,
  Notification,
  Organization,
  Player,
  PlatformOrganization,
  PlatformWorkspace,
  PlatformChannel,
  PlatformUser,
  PlatformMembership,
  PlatformActivationToken,
  PlatformToken,
  PlatformTicket,
  PlatformTicketReply,
  PlatformTicketStepEntry,
  PlatformAutomation,
  PushCompany,
  PushUser,
  PushMembership,
  PushRefreshToken,
  PushApp,
  PushApiKey,
  PushDevice,
  PushSegment,
  PushSend,
  PushNotification,
  PushEventTrigger,
  PushTriggerFiring,
  PushCampaign,
  PushTrialRequest,
  PushSetupToken,
  PushAuditEvent,
  SigningKey,
  Ticket,
  TicketAudit,
  TicketStep,
  TicketUsage,
  WebhookAttempt,
  WebhookDelivery,
  WebhookEndpoint,
  WorkflowStart,
  Workspace,
};

export const ENTITIES = [
  Organization,
  Workspace,
  ApiKey,
  SigningKey,
  Agent,
  Player,
  Ticket,
  Message,
  TicketAudit,
  TicketStep,
  Event,
  TicketUsage,
  WorkflowStart,
  IdempotencyKey,
  Notification,
  WebhookEndpoint,
  WebhookDelivery,
  WebhookAttempt,
  // push service (/api/v1)
  PushCompany,
  PushUser,
  PushMembership,
  PushRefreshToken,
  PushApp,
  PushApiKey,
  PushDevice,
  PushSegment,
  PushSend,
  PushNotification,
  PushEventTrigger,
  PushTriggerFiring,
  PushCampaign,
  PushTrialRequest,
  PushSetupToken,
  PushAuditEvent,
  // platform API (docs/platform.md)
  PlatformOrganization,
  PlatformWorkspace,
  PlatformChannel,
  PlatformUser,
  PlatformMembership,
  PlatformActivationToken,
  PlatformToken,
  PlatformTicket,
  PlatformTicketReply,
  PlatformTicketStepEntry,
  PlatformAutomation,
];
