import { describe, expect, it } from 'vitest';
import { escapeText, html, isMarkup, joinHtml, trustedMarkup } from '../../src/present/html.ts';

const hostile = `<script>alert("x")</script>&'`;

describe('html tagged template', () => {
  it('escapes every interpolated string, in text and in attributes', () => {
    const out = html`<a title="${hostile}" href="/drill?x=${hostile}">${hostile}</a>`.text;
    expect(out).not.toContain('<script>');
    expect(out).not.toContain('"x"');
    expect(out).toBe(
      `<a title="${escapeText(hostile)}" href="/drill?x=${escapeText(hostile)}">${escapeText(hostile)}</a>`,
    );
    expect(escapeText(hostile)).toBe('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;');
  });

  it('keeps markup made by html or trusted, and only that', () => {
    const inner = html`<b>${'a<b'}</b>`;
    expect(html`<p>${inner}</p>`.text).toBe('<p><b>a&lt;b</b></p>');
    expect(html`<p>${trustedMarkup('<svg></svg>')}</p>`.text).toBe('<p><svg></svg></p>');
    // a string that looks like markup is still text
    expect(html`<p>${'<b>x</b>'}</p>`.text).toBe('<p>&lt;b&gt;x&lt;/b&gt;</p>');
    // an object that only looks like Markup is refused rather than trusted
    expect(() => html`${{ text: '<b>' } as never}`).toThrow(TypeError);
  });

  it('renders arrays, numbers and empties', () => {
    expect(html`<ul>${['<1>', html`<li>2</li>`]}</ul>`.text).toBe('<ul>&lt;1&gt;<li>2</li></ul>');
    expect(html`${0}|${12n}|${null}|${undefined}|${false}|${true}`.text).toBe('0|12||||true');
    expect(joinHtml(['a&b', html`<i>c</i>`], html`<br>`).text).toBe('a&amp;b<br><i>c</i>');
    expect(joinHtml(['x', 'y'], ' & ').text).toBe('x &amp; y');
    expect(isMarkup(html``)).toBe(true);
    expect(isMarkup('<b>')).toBe(false);
    expect(`${html`<i>${'&'}</i>`}`).toBe('<i>&amp;</i>');
  });
});
