// The platform API client, its errors and the shapes it returns.
export { ApiClient, type ApiClientOptions, type ApiStats, type BillingPage, type BillingQuery, type BillingRecord, type QuotaWindow } from './client.ts';
export { ApiAuthError, ApiForbiddenError, ApiGraphqlError, ApiRequestError, ApiResponseError, ApiUnavailableError, type Problem } from './errors.ts';
export { RateLimitGovernor, parseRateLimit, realClock, type Clock, type WindowState } from './governor.ts';
export { BILLING_AMOUNT_FIELDS, BILLING_ID_FIELD, BILLING_PATHS, type BillingRoute, type InventoryKind } from './schemas.ts';
