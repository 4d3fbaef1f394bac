// The platform API client, its errors and the shapes it returns.
export { checkApiUrl, displayUrl } from './api-url.ts';
export type { BalanceReading, BalanceSource, TopUp } from './balance.ts';
export { type BillingPage, type BillingQuery, type StatedMetadata } from './billing-page.ts';
export { ApiClient, type ApiClientOptions, type QuotaWindow } from './client.ts';
export {
  ApiArgumentError,
  ApiAuthError,
  ApiForbiddenError,
  ApiGraphqlError,
  ApiNotPlatformError,
  ApiRequestError,
  ApiResponseError,
  ApiServerError,
  ApiTransportError,
  ApiUnavailableError,
  ApiUrlError,
  type Problem,
} from './errors.ts';
export { RateLimitGovernor, parseRateLimit, realClock, type Clock, type WindowState } from './governor.ts';
export { ApiRequester, type ApiAnswer, type ApiCall, type ApiStats, type RequesterOptions } from './request.ts';
export { FAILURE_DECISIONS, STATUS_DECISIONS, failureKind, statusDecision, type Decision, type FailureKind } from './retry-policy.ts';
export { BILLING_AMOUNT_FIELDS, BILLING_ID_FIELD, BILLING_PATHS, type BillingRoute, type InventoryKind } from './schemas.ts';
