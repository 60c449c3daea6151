export {
  type AvailabilityQuery,
  type CancelBookingResult,
  type RescheduleBookingResult,
  type TestHelperResult,
  type CreateBookingResult,
  type GetBookingResult,
  type GetEventResult,
  type ListBookingsResult,
  type ListEventsResult,
  type BookingsQuery,
  type EventsQuery,
  type GetVenueResult,
  type ListCustomerBookingsResult,
  type ListCustomersResult,
  type ListTreatmentsResult,
  type ListVenuesResult,
  type VariantAvailabilityResult,
  type CallOptions,
  type CustomerBookingsQuery,
  type CustomersQuery,
  createPartnerClient,
  type PartnerClient,
  type PartnerClientOptions,
  type RawClient,
  type SuccessOf,
  type VenuesQuery,
} from './client.js';
export {
  type ApiErrorBody,
  ErrorCode,
  type Failure,
  type FieldProblem,
  type KnownErrorCode,
  PartnerApiError,
  PartnerConnectionError,
  PartnerTimeoutError,
  type Result,
  type Success,
} from './errors.js';
export { type CursorPageResult, type PageResult, paginate, paginateAfter } from './paginate.js';
export { type RateLimit, type ResponseInfo } from './response-info.js';
export { defaultRetry, type RetryOptions } from './retry.js';
export * from './types.js';
export { SDK_VERSION } from './user-agent.js';
export { contract } from '@spa/contract';
export { ResponseValidationError } from '@ts-rest/core';
export {
  verifyWebhook,
  type VerifyOptions,
  type WebhookErrorCode,
  type WebhookEvent,
  type WebhookEventOf,
  type WebhookEventType,
  type WebhookHeaders,
  type WebhookVerification,
  WebhookVerificationError,
} from './webhooks.js';
