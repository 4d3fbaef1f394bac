// Reading SQL text for names: what is left once comments and string literals are gone, lowercased. The view applier
// orders views by the names they mention, and the layer rule checks what they read.

/** The SQL without comments and string literals, lowercased: what is left names tables, views, columns and CTEs. */
export function codeOnly(sql: string): string {
  // one pass, left to right: whichever opens first wins, so `--` inside a string ('apply --approve') is text and a
  // quote inside a comment (-- the pod's name) opens no string
  return sql.replace(/--[^\n]*|\/\*[\s\S]*?\*\/|'(?:[^']|'')*'/g, (m) => (m.startsWith("'") ? "''" : ' ')).toLowerCase();
}
