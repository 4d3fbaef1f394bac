// The public SQL interface (DESIGN.md): every view in sql/views except the int_* building blocks, with the first
// sentence of its header comment – what one row is.
import { listViewFiles } from '../store/views.ts';

export interface PublicView {
  name: string;
  layer: string;
  description: string;
}

/** The first sentence of a header comment. */
export function firstSentence(text: string): string {
  const m = /^(.*?[.!?])(\s|$)/.exec(text);
  return (m ? m[1]! : text).trim();
}

export function listPublicViews(): PublicView[] {
  return listViewFiles()
    .filter((v) => !v.name.startsWith('int_'))
    .map((v) => ({ name: v.name, layer: v.layer, description: firstSentence(v.description) }));
}
