/** The webhooks module's door: what other features and the process may use. */
export { recordBookingEvent, watchStatusChanges } from './record-event.js';
export { createWebhookEngine, type WebhookEngine, type WebhookEngineOptions } from './webhook-engine.js';
export { webhookMetrics, WebhookMetrics } from './metrics.js';
export * as webhookEndpoints from './endpoints.service.js';
export {
  type FeedEventRow,
  findFeedEvent,
  findFeedPosition,
  listFeedEvents,
  numberCommittedEvents,
} from './events-feed.repository.js';
