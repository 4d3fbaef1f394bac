// Where a base URL is set (flag, environment, config), so that a message about a wrong URL names the setting the user
// must change: the billing API and the Serverless queue API are set apart (balance-and-queue.md §3).
export interface UrlSource {
  flag: string;
  env: string;
  config: string;
  example: string;
}

export const API_URL_SOURCE: UrlSource = { flag: '--api-url', env: 'GPULEDGER_API_URL', config: 'apiUrl', example: 'https://api.runpod.io' };
// balance-and-queue.md §3: the Serverless queue API has its own host
export const QUEUE_API_URL_SOURCE: UrlSource = { flag: '--queue-api-url', env: 'GPULEDGER_QUEUE_API_URL', config: 'queueApiUrl', example: 'https://api.runpod.ai' };
