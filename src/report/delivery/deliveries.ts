// The delivery record (_meta_report_deliveries, sql/schema/003_report_deliveries.sql): written before the first
// send and updated after each attempt, so a crash mid-delivery still leaves a row saying what was tried.
import { randomUUID } from 'node:crypto';
import { listValue } from '../../util/duckdb-api.ts';
import type { Store } from '../../store/database.ts';
import { redact } from '../../util/secrets.ts';
import type { AttachmentKind } from './email-content.ts';

export type DeliveryStatus = 'sending' | 'sent' | 'partial' | 'failed';

export interface DeliveryRecord {
  deliveryId: string;
  report: string;
  period: string;
  path: string;
  bytes: number;
  recipients: string[];
  attachment: AttachmentKind;
}

export async function startDelivery(store: Store, d: Omit<DeliveryRecord, 'deliveryId'>): Promise<DeliveryRecord> {
  const record = { ...d, deliveryId: randomUUID() };
  await store.run(
    `insert into _meta_report_deliveries
       (delivery_id, report, period, path, bytes, recipients, attachment, attempts, status, created_at, updated_at)
     values ($id, $report, $period, $path, $bytes, $recipients, $attachment, 0, 'sending', now(), now())`,
    {
      id: record.deliveryId,
      report: d.report,
      period: d.period,
      path: d.path,
      bytes: d.bytes,
      recipients: listValue(d.recipients),
      attachment: d.attachment,
    },
  );
  return record;
}

export async function updateDelivery(
  store: Store,
  deliveryId: string,
  update: { attempts: number; status: DeliveryStatus; lastError?: string | undefined; messageId?: string | undefined },
): Promise<void> {
  await store.run(
    `update _meta_report_deliveries
        set attempts = $attempts, status = $status, last_error = $error, message_id = $message, updated_at = now()
      where delivery_id = $id`,
    {
      id: deliveryId,
      attempts: update.attempts,
      status: update.status,
      // defence in depth: messages are redacted where they are made, and again here before they are stored
      error: update.lastError === undefined ? null : redact(update.lastError),
      message: update.messageId ?? null,
    },
  );
}
