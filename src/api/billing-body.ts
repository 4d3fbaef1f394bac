// Splitting a billing answer's body without parsing its records (billing-api-v2.md §2 "Response shape"): the body is
// `{"records":[…],"metadata":{…}}` – a one-year answer is tens of MB, and JSON.parse of it costs as much as DuckDB's
// read_json of the records does. So the records array is cut out as bytes (handed to read_json unparsed) and only
// the small metadata object is parsed. A body of any other shape (whitespace, other keys) takes the slow, correct
// path: JSON.parse the whole body and write the records array back out.

export interface SplitBody {
  /** The records array as JSON bytes, `[` … `]`. */
  records: Buffer;
  metadata: unknown;
  /** The metadata's text (fast path): its totals are read exactly from it, not through a double. */
  metadataText?: string;
  /** The records' count when the slow path parsed them (the fast path leaves counting to the metadata or the loader). */
  parsedCount?: number;
  /** The records value when the slow path found something other than an array (for the schema's message). */
  notAnArray?: unknown;
}

const RECORDS_FIRST = Buffer.from('{"records":[');
const METADATA_AFTER = Buffer.from('],"metadata":');
const METADATA_FIRST = Buffer.from('{"metadata":');
const RECORDS_AFTER = Buffer.from(',"records":[');
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

function lastNonSpace(body: Buffer): number {
  let i = body.length - 1;
  while (i >= 0 && (body[i] === 0x20 || body[i] === 0x0a || body[i] === 0x0d || body[i] === 0x09)) i--;
  return i;
}

/** Throws a SyntaxError when the body is not complete JSON (a cut-off answer: retried). */
export function splitBillingBody(body: Buffer): SplitBody {
  const last = lastNonSpace(body);
  if (last > 0 && body[last] === CLOSE_BRACE) {
    if (body.subarray(0, RECORDS_FIRST.length).equals(RECORDS_FIRST)) {
      // the metadata comes last and holds no `],"metadata":` of its own: the last occurrence is the boundary
      const at = body.lastIndexOf(METADATA_AFTER);
      if (at >= RECORDS_FIRST.length - 1) {
        const metadataText = body.toString('utf8', at + METADATA_AFTER.length, last);
        return { records: body.subarray(RECORDS_FIRST.length - 1, at + 1), metadata: JSON.parse(metadataText) as unknown, metadataText };
      }
    } else if (body.subarray(0, METADATA_FIRST.length).equals(METADATA_FIRST) && body[lastNonSpace(body.subarray(0, last))] === CLOSE_BRACKET) {
      // the metadata first: a wrong cut (a value containing `,"records":[`) fails its parse and takes the slow path
      const at = body.indexOf(RECORDS_AFTER, METADATA_FIRST.length);
      if (at > 0) {
        try {
          const metadataText = body.toString('utf8', METADATA_FIRST.length, at);
          const metadata: unknown = JSON.parse(metadataText);
          return { records: body.subarray(at + RECORDS_AFTER.length - 1, lastNonSpace(body.subarray(0, last)) + 1), metadata, metadataText };
        } catch {
          /* the slow path below decides */
        }
      }
    }
  }
  const parsed = JSON.parse(body.toString('utf8')) as { records?: unknown; metadata?: unknown } | null;
  const records = parsed?.records;
  if (!Array.isArray(records)) return { records: Buffer.from('[]'), metadata: parsed?.metadata, notAnArray: records };
  return { records: Buffer.from(JSON.stringify(records)), metadata: parsed?.metadata, parsedCount: records.length };
}
