// Where the Serverless queue API lives (balance-and-queue.md §3: https://api.runpod.ai, not the billing API's
// host). Configured (flag > env > config, resolveSettings) it is used for every account; otherwise the platform's
// API URL maps to the platform's queue URL and any other API URL – the simulator, a proxy – serves both itself.
export const PLATFORM_API_URL = 'https://api.runpod.io';
export const PLATFORM_QUEUE_API_URL = 'https://api.runpod.ai';

export function queueApiUrlFor(configured: string | undefined, accountApiUrl: string): string {
  if (configured !== undefined) return configured.replace(/\/+$/, '');
  const api = accountApiUrl.replace(/\/+$/, '');
  return api === PLATFORM_API_URL ? PLATFORM_QUEUE_API_URL : api;
}
