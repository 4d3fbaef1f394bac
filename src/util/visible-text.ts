// Text for a terminal, an alert or an email's plain text, where a name cannot disguise itself (issue 37 §5): control
// characters (C0, DEL, C1 – CR and LF start a line that looks like another row or message), the Unicode line and
// paragraph separators, and the bidirectional marks, embeddings, overrides and isolates (U+202E turns
// `invoice-gpj.exe` into `invoice-exe.jpg` on screen) are shown escaped, `\r`, `\n`, `\t` or `\u202E`. A backslash
// is left as it is, so escaping twice changes nothing (an alert title escaped when it fired is escaped again by
// the email) and a path reads as typed. HTML needs none of this: the html template escapes and the page shows text.

const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const NAMED: Record<string, string> = { '\r': '\\r', '\n': '\\n', '\t': '\\t' };

/** `text` with every control and bidi character written as an escape a person can see. */
export function visibleText(text: string): string {
  return text.replace(INVISIBLE, (c) => NAMED[c] ?? `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
}
