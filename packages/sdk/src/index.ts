export { createPartnerClient, type PartnerClient, type PartnerClientOptions } from './client.js';
export { PartnerApiError, type Result } from './errors.js';
export { paginate } from './paginate.js';
export { defaultRetry, type RetryOptions } from './retry.js';
