// The platform API client, its errors and the shapes it returns.
export { checkApiUrl, displayUrl } from './api-url.ts';
export type { BalanceReading, BalanceSource, TopUp } from './balance.ts';
export { type BillingPage, type BillingQuery, type StatedMetadata } from './billing-page.ts';
export { ApiClient, type ApiClientOptions, type QuotaWindow } from './client.ts';
export { API_TIMEOUTS, BREAKER_TIMEOUTS, HostBreakers, HostUnresponsiveError, QUEUE_HEALTH_TIMEOUTS, QUICK_TIMEOUTS, type Timeouts } from './deadlines.ts';
export {
  ApiArgumentError,
  ApiAuthError,
  ApiForbiddenError,
  ApiGraphqlError,
  ApiNotPlatformError,
  ApiNotTlsError,
  ApiRequestError,
  ApiResponseError,
  ApiServerError,
  ApiTransportError,
  ApiUnavailableError,
  ApiUrlError,
  ApiWriteUnknownError,
  type Problem,
} from './errors.ts';
export { RateLimitGovernor, parseRateLimit, realClock, type Clock, type WindowState } from './governor.ts';
export { ApiRequester, type ApiAnswer, type ApiCall, type ApiStats, type RequesterOptions } from './request.ts';
export { FAILURE_DECISIONS, STATUS_DECISIONS, failureKind, statusDecision, type Decision, type FailureKind } from './retry-policy.ts';
export { podActionRequest, workersRequest, type PodAction, type WorkerCounts, type WriteRequest } from './routes/writes.ts';
export { API_URL_SOURCE, QUEUE_API_URL_SOURCE, type UrlSource } from './url-source.ts';
export { BILLING_AMOUNT_FIELDS, BILLING_ID_FIELD, BILLING_PATHS, type BillingRoute, type InventoryKind } from './schemas.ts';
