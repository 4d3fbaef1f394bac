// How the workbook travels: attached as is, or – when larger than reports.email.attachUpToMb – not attached (the
// email states where it is on disk). Mail servers commonly refuse messages over 20–25 MB, and base64 adds a third.
// Never zipped: an .xlsx is already a zip, deflated inside (zipping it again gained 5–15 %).
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { ReportEmailConfig } from '../../config/reports.ts';
import type { AttachmentKind } from './email-content.ts';
import type { MailAttachment } from '../../mail/index.ts';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const MB = 1024 * 1024;

export interface PreparedAttachment {
  kind: AttachmentKind;
  attachment: MailAttachment | undefined;
  /** Size of what is attached (0 when nothing is). */
  bytes: number;
}

export function prepareAttachment(path: string, bytes: number, limits: Pick<ReportEmailConfig, 'attachUpToMb'>): PreparedAttachment {
  if (bytes > limits.attachUpToMb * MB) return { kind: 'none', attachment: undefined, bytes: 0 };
  return { kind: 'xlsx', attachment: { filename: basename(path), content: readFileSync(path), contentType: XLSX_TYPE }, bytes };
}
