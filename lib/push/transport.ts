// The one interface between the push send activities and the outside services (FCM,
// APNs). The activities read tokens from Postgres, call `send` with one page of messages
// and record each outcome before the batch moves on; the transports know nothing about
// the database or Temporal. Outcomes come back in input order, one per message.
// Endpoints: FCM_ENDPOINT / APNS_ENDPOINT when set (the local sink under npm start and
// npm test), else Google's and Apple's hosts (docs/push.md, "Transports and the local sink").
export { type PushMessage, type PushOutcome, type PushTransport, PAYLOAD_KEYS, payloadData } from './message';
export { createFcmTransport, classifyFcmError, FCM_MAX_BATCH, type FcmTransportOptions } from './fcm';
export { createApnsTransport, classifyApnsResponse, APNS_MAX_BATCH, type ApnsTransportOptions } from './apns';
export {
  parseFcmServiceAccount,
  parseApnsKey,
  parseApnsConfig,
  CredentialError,
  type FcmServiceAccount,
  type ApnsKey,
} from './credentials';
