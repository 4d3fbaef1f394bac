// Text placed into an HTML email body (report summary, alert list): names and messages come from the data and
// the config, so they are escaped, never trusted as markup.
export function escapeHtml(s: string): string {
  return s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&#39;' })[c]!);
}
