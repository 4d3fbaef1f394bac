// A workbook as it prints: LibreOffice converts it to PDF, and poppler (Debian's poppler-utils: pdftotext, pdfimages)
// says where every word and image landed on which page, so a test can hold a printed sheet to geometry – a label on
// its value's line, a chart on one page, a row's cells on one line – instead of to the cells' contents alone.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { tempDir } from './temp-dir.ts';

const works = (cmd: string, args: string[]) => spawnSync(cmd, args, { encoding: 'utf8' }).status === 0;

/** The office suite's command, or undefined where none is installed. */
export const soffice = ['soffice', 'libreoffice'].find((cmd) => works(cmd, ['--version']));
/** poppler-utils is installed (pdftotext and pdfimages answer -v with status 0). */
export const popplerAvailable = works('pdftotext', ['-v']) && works('pdfimages', ['-v']);

/** A box in PDF points, y growing downwards from the page's top (pdftotext's coordinates). */
export interface PdfBox {
  /** 1-based page number. */
  page: number;
  text: string;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}

export interface PdfPage {
  page: number;
  width: number;
  height: number;
  words: PdfBox[];
  /** pdftotext's lines: the words of one block on one baseline (a cell's line of text, as a rule). */
  lines: PdfBox[];
}

/** Converts `file` to PDF with LibreOffice (a fresh profile, so parallel conversions never share one) into `outDir`. */
export function officeToPdf(file: string, outDir: string): string {
  if (!soffice) throw new Error('LibreOffice (soffice) is not installed');
  mkdirSync(outDir, { recursive: true });
  const profile = `file://${tempDir('gpuledger-lo-profile-').dir}`;
  const r = spawnSync(soffice, [`-env:UserInstallation=${profile}`, '--headless', '--convert-to', 'pdf', '--outdir', outDir, file], {
    encoding: 'utf8',
    timeout: 180_000,
  });
  if (r.status !== 0) throw new Error(`soffice failed (${r.status}): ${r.stderr}`);
  return join(outDir, basename(file).replace(/\.[^.]+$/, '.pdf'));
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const unescape = (s: string) => s.replace(/&(amp|lt|gt|quot|apos);/g, (_, e: string) => ENTITIES[e]!);
const attr = (tag: string, name: string) => Number(new RegExp(`${name}="([-\\d.]+)"`).exec(tag)![1]);

/** Every page's words and lines, read from `pdftotext -bbox-layout` (XHTML: page > flow > block > line > word). */
export function readPdfBoxes(pdf: string): PdfPage[] {
  const r = spawnSync('pdftotext', ['-bbox-layout', pdf, '-'], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`pdftotext failed (${r.status}): ${r.stderr}`);
  const pages: PdfPage[] = [];
  for (const [n, m] of [...r.stdout.matchAll(/<page ([^>]*)>([\s\S]*?)<\/page>/g)].entries()) {
    const page = n + 1;
    const box = (tag: string, text: string): PdfBox => ({ page, text, xMin: attr(tag, 'xMin'), yMin: attr(tag, 'yMin'), xMax: attr(tag, 'xMax'), yMax: attr(tag, 'yMax') });
    const words: PdfBox[] = [];
    const lines: PdfBox[] = [];
    for (const line of m[2]!.matchAll(/<line ([^>]*)>([\s\S]*?)<\/line>/g)) {
      const own = [...line[2]!.matchAll(/<word ([^>]*)>([^<]*)<\/word>/g)].map((w) => box(w[1]!, unescape(w[2]!)));
      words.push(...own);
      lines.push(box(line[1]!, own.map((w) => w.text).join(' ')));
    }
    pages.push({ page, width: attr(m[1]!, 'width'), height: attr(m[1]!, 'height'), words, lines });
  }
  return pages;
}

/** Each image drawn, with its page and PDF object number (`pdfimages -list`; soft masks left out). */
export function pdfImages(pdf: string): { page: number; object: number; width: number; height: number }[] {
  const r = spawnSync('pdfimages', ['-list', pdf], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`pdfimages failed (${r.status}): ${r.stderr}`);
  return r.stdout
    .split('\n')
    .slice(2)
    .map((l) => l.trim().split(/\s+/))
    .filter((c) => c.length > 10 && c[2] === 'image')
    .map((c) => ({ page: Number(c[0]), object: Number(c[10]), width: Number(c[3]), height: Number(c[4]) }));
}

/** Two boxes share some height: they print on one line. */
export const sameLine = (a: PdfBox, b: PdfBox) => a.page === b.page && Math.min(a.yMax, b.yMax) - Math.max(a.yMin, b.yMin) > 0;

/**
 * Two boxes print one over the other: they share more than half a point across and more than a quarter of the lower
 * box's height. A glyph box runs from ascent to descent, so the lines of one wrapped cell share about a point of it.
 */
export const overlap = (a: PdfBox, b: PdfBox) =>
  a.page === b.page &&
  Math.min(a.xMax, b.xMax) - Math.max(a.xMin, b.xMin) > 0.5 &&
  Math.min(a.yMax, b.yMax) - Math.max(a.yMin, b.yMin) > 0.25 * Math.min(a.yMax - a.yMin, b.yMax - b.yMin);

/** The first line of each page: the printed sheet's title row (every sheet prints its heading on each page). */
export const pageTitle = (p: PdfPage) => [...p.lines].sort((a, b) => a.yMin - b.yMin || a.xMin - b.xMin)[0]?.text ?? '';
