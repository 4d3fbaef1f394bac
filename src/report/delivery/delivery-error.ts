// A report that was rendered but not delivered: exit 1, and the message says where the workbook is.
import { EXIT, GpuledgerError } from '../../util/errors.ts';
import type { DeliveryResult } from './deliver.ts';

export class ReportDeliveryError extends GpuledgerError {
  readonly result: DeliveryResult;
  constructor(result: DeliveryResult) {
    const what = result.status === 'partial' ? `reached only some recipients: ${result.error}` : `failed after ${result.attempts} attempt${result.attempts === 1 ? '' : 's'}: ${result.error}`;
    super(
      'report_delivery',
      `email of ${result.report} ${result.period} ${what}; the workbook stays at ${result.path} (recorded in _meta_report_deliveries, id ${result.deliveryId})`,
      EXIT.failure,
      { context: { deliveryId: result.deliveryId } },
    );
    this.result = result;
  }
}
