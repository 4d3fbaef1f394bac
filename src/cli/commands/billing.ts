// `gpuledger billing pods|serverless|network-volume` – the platform CLI's billing views (billing-api-v2.md §7) with
// its flags and defaults, answered from the database instead of the API.
import type { Command } from 'commander';
import { BILLING_KINDS, BILLING_OUTPUTS, type BillingKind } from '../../query/billing-kinds.ts';
import { BUCKET_SIZES, isBucketSize } from '../../util/buckets.ts';
import { parseRfc3339 } from '../../util/dates.ts';
import { UsageError } from '../../util/errors.ts';
import type { ExitState } from '../exit-state.ts';
import { print } from '../output.ts';

interface BillingFlags {
  bucketSize: string;
  startTime?: string;
  endTime?: string;
  grouping?: string;
  podId?: string;
  endpointId?: string;
  gpuId?: string;
  account?: string;
  output: string;
}

export function registerBilling(program: Command, _exit: ExitState): void {
  program
    .command('billing')
    .argument('<kind>', BILLING_KINDS.join(', '))
    .option('--bucket-size <size>', BUCKET_SIZES.join(', '), 'day')
    .option('--start-time <rfc3339>', 'window start, snapped down to its bucket (default: end − 30 days)')
    .option('--end-time <rfc3339>', 'exclusive window end, snapped up to its bucket (default: the data horizon)')
    .option('--grouping <field>', 'pods: podId|gpuId (default gpuId); serverless: endpointId|gpuId (default endpointId)')
    .option('--pod-id <id>', 'pods: only this pod')
    .option('--endpoint-id <id>', 'serverless: only this endpoint')
    .option('--gpu-id <id>', 'pods, serverless: only this GPU type (e.g. "NVIDIA GeForce RTX 4090")')
    .option('--account <name>', 'only this account (default: all accounts summed)')
    .option('-o, --output <format>', BILLING_OUTPUTS.join(', '), 'json')
    .description("the platform CLI's billing views, answered from the database")
    .action(async (kind: string, flags: BillingFlags, command: Command) => {
      if (!(BILLING_KINDS as readonly string[]).includes(kind)) {
        throw new UsageError(`billing takes one of ${BILLING_KINDS.join(', ')}, got '${kind}'`);
      }
      if (!isBucketSize(flags.bucketSize)) {
        throw new UsageError(`--bucket-size must be one of ${BUCKET_SIZES.join(', ')}, got '${flags.bucketSize}'`);
      }
      // implementations load only when the command runs, so --help and other commands start fast (issue 11)
      const [{ parseBillingOutput, renderBilling }, { queryBilling }, { withReadStore }, { contextFor }] = await Promise.all([
        import('../../query/billing-output.ts'),
        import('../../query/billing.ts'),
        import('../../query/open-database.ts'),
        import('../context.ts'),
      ]);
      const output = parseBillingOutput(flags.output);
      const start = flags.startTime ? parseRfc3339(flags.startTime, '--start-time') : undefined;
      const end = flags.endTime ? parseRfc3339(flags.endTime, '--end-time') : undefined;
      const { settings } = contextFor(command);
      const result = await withReadStore(settings.dbPath, (store) =>
        queryBilling(store, {
          kind: kind as BillingKind,
          bucketSize: flags.bucketSize as never,
          start,
          end,
          grouping: flags.grouping,
          filters: { podId: flags.podId, endpointId: flags.endpointId, gpuId: flags.gpuId },
          account: flags.account,
        }),
      );
      print(renderBilling(result, output));
    });
}
