// How the workbook travels: attached as is, zipped when larger than reports.email.zipAboveMb, or – when even that
// is larger than reports.email.attachUpToMb – not attached (the email states where it is on disk). Mail servers
// commonly refuse messages over 20–25 MB, and base64 adds a third.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { zipSync } from 'fflate';
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

export function prepareAttachment(path: string, bytes: number, limits: Pick<ReportEmailConfig, 'zipAboveMb' | 'attachUpToMb'>): PreparedAttachment {
  const name = basename(path);
  const limit = limits.attachUpToMb * MB;
  if (bytes <= limits.zipAboveMb * MB) {
    if (bytes > limit) return { kind: 'none', attachment: undefined, bytes: 0 };
    return { kind: 'xlsx', attachment: { filename: name, content: readFileSync(path), contentType: XLSX_TYPE }, bytes };
  }
  // an .xlsx is already deflated inside, so zipping gains little (~5–15 %); a file twice the limit is not read at all
  if (bytes > 2 * limit) return { kind: 'none', attachment: undefined, bytes: 0 };
  const zipped = Buffer.from(zipSync({ [name]: [readFileSync(path), { level: 9 }] }));
  if (zipped.length > limit) return { kind: 'none', attachment: undefined, bytes: 0 };
  return { kind: 'zip', attachment: { filename: name.replace(/\.xlsx$/, '.zip'), content: zipped, contentType: 'application/zip' }, bytes: zipped.length };
}
