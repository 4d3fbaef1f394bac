// SVG → PNG with resvg. resvg draws no text without a font, and CI machines are minimal Debian, so the font is
// chosen explicitly: reports.chartFont if configured, else the first of a few common sans-serif files (DejaVu Sans
// comes with LibreOffice and fonts-dejavu-core on Debian/Ubuntu; Liberation and Noto are the usual alternatives;
// Arial on macOS and Windows), else whatever system fonts resvg finds. A probe render tells whether text shows;
// when it does not, charts still render (bars and lines) and the caller warns once.
import { existsSync } from 'node:fs';
import { Resvg, type ResvgRenderOptions } from '@resvg/resvg-js';
import { svg } from '../../present/index.ts';
import { ConfigError } from '../../util/errors.ts';

export interface ChartFont {
  /** The font-family value charts use. */
  family: string;
  /** Font files loaded (empty: system fonts). */
  files: string[];
  /** Where it came from, for the metadata sheet. */
  source: string;
  /** Whether a probe text rendered visible pixels. */
  textRenders: boolean;
}

const CANDIDATES: { family: string; regular: string; bold?: string }[] = [
  { family: 'DejaVu Sans', regular: '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf', bold: '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf' },
  { family: 'DejaVu Sans', regular: '/usr/share/fonts/TTF/DejaVuSans.ttf', bold: '/usr/share/fonts/TTF/DejaVuSans-Bold.ttf' },
  { family: 'DejaVu Sans', regular: '/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf', bold: '/usr/share/fonts/dejavu-sans-fonts/DejaVuSans-Bold.ttf' },
  { family: 'DejaVu Sans', regular: '/usr/share/fonts/dejavu/DejaVuSans.ttf', bold: '/usr/share/fonts/dejavu/DejaVuSans-Bold.ttf' },
  { family: 'Liberation Sans', regular: '/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf', bold: '/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf' },
  { family: 'Liberation Sans', regular: '/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf', bold: '/usr/share/fonts/truetype/liberation2/LiberationSans-Bold.ttf' },
  { family: 'Noto Sans', regular: '/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf', bold: '/usr/share/fonts/truetype/noto/NotoSans-Bold.ttf' },
  { family: 'Arial', regular: '/System/Library/Fonts/Supplemental/Arial.ttf', bold: '/System/Library/Fonts/Supplemental/Arial Bold.ttf' },
  { family: 'Arial', regular: 'C:\\Windows\\Fonts\\arial.ttf', bold: 'C:\\Windows\\Fonts\\arialbd.ttf' },
];

function options(font: Omit<ChartFont, 'textRenders'>): ResvgRenderOptions {
  return font.files.length > 0
    ? { font: { loadSystemFonts: false, fontFiles: font.files, defaultFontFamily: font.family, sansSerifFamily: font.family } }
    : { font: { loadSystemFonts: true } };
}

const BLANK = svg`<rect width="80" height="30" fill="#fff"/>`;

function probe(font: Omit<ChartFont, 'textRenders'>): boolean {
  const text = svg`<text x="4" y="22" font-size="18" font-family="${font.family}" fill="#000">$0,9</text>`;
  const sample = svg`<svg xmlns="http://www.w3.org/2000/svg" width="80" height="30">${BLANK}${text}</svg>`;
  const pixels = new Resvg(sample.text, options(font)).render().pixels;
  for (let i = 0; i < pixels.length; i += 4) if (pixels[i]! < 128) return true;
  return false;
}

const cache = new Map<string, ChartFont>();

export function findChartFont(configured?: string): ChartFont {
  const key = configured ?? '';
  const hit = cache.get(key);
  if (hit) return hit;
  let base: Omit<ChartFont, 'textRenders'>;
  if (configured !== undefined) {
    if (!existsSync(configured)) throw new ConfigError(`reports.chartFont: no such font file ${configured}`);
    // with a single font loaded, resvg uses it for any family name, so its real family name need not be known
    base = { family: 'sans-serif', files: [configured], source: configured };
  } else {
    const found = CANDIDATES.find((c) => existsSync(c.regular));
    base = found
      ? { family: found.family, files: [found.regular, ...(found.bold && existsSync(found.bold) ? [found.bold] : [])], source: found.regular }
      : { family: 'sans-serif', files: [], source: 'system fonts' };
  }
  const font = { ...base, textRenders: probe(base) };
  cache.set(key, font);
  return font;
}

export function renderPng(svg: string, font: ChartFont): Buffer {
  return new Resvg(svg, { ...options(font), fitTo: { mode: 'zoom', value: 2 } }).render().asPng();
}
