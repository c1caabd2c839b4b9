import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { escapeHtml, sanitizeRichText, toPlainText, htmlToText } from '../../src/main/core/html';

describe('sanitizeRichText', () => {
  it('returns plain descriptions and simple markup unchanged (no paragraph wrapping)', () => {
    expect(sanitizeRichText('Seeded event 251. Night tasting with friends.')).toBe(
      'Seeded event 251. Night tasting with friends.',
    );
    expect(sanitizeRichText('<p>Created by samples.sh</p>')).toBe('<p>Created by samples.sh</p>');
    expect(sanitizeRichText('')).toBe('');
  });

  it('entity-escapes & < > in text, keeping existing entities', () => {
    expect(sanitizeRichText('Food & Drink <3 > 2')).toBe('Food &amp; Drink &lt;3 &gt; 2');
    expect(sanitizeRichText('Food &amp; Drink')).toBe('Food &amp; Drink');
  });

  it('keeps the formatting a rich-text editor emits', () => {
    const html =
      '<h2>Title</h2><p><strong>b</strong> <em>i</em> <u>u</u> <s>s</s> <code>c</code></p>' +
      '<ul><li>one</li></ul><ol><li>two</li></ol><blockquote>q</blockquote><pre>pre</pre>' +
      '<figure><img src="https://e.com/a.png" alt="A" width="10" height="20" /><figcaption>cap</figcaption></figure>' +
      '<table><thead><tr><th colspan="2">h</th></tr></thead><tbody><tr><td rowspan="1">d</td></tr></tbody></table>' +
      '<div><span>s</span></div><hr /><p>a<br />b</p><a href="https://e.com" title="T">link</a>';
    expect(sanitizeRichText(html)).toBe(html);
    expect(sanitizeRichText('<p>a<br>b</p><hr>')).toBe('<p>a<br />b</p><hr />');
  });

  it('removes scripts, styles and embedding elements with their content', () => {
    expect(sanitizeRichText('<script>alert(1)</script><p>ok</p>')).toBe('<p>ok</p>');
    expect(sanitizeRichText('<SCRIPT SRC=//evil/x.js></SCRIPT>ok')).toBe('ok');
    expect(sanitizeRichText('<style>body{display:none}</style>keep')).toBe('keep');
    expect(sanitizeRichText('<iframe src="https://evil.com">inner</iframe>after')).toBe('after');
    expect(sanitizeRichText('<object data="x.swf"></object><embed src="x.swf">ok')).toBe('ok');
    expect(sanitizeRichText('<svg onload="alert(1)"><script>alert(1)</script><circle /></svg>t')).toBe('t');
    expect(sanitizeRichText('<form action="https://evil"><input value="1"></form>')).toBe('');
  });

  it('removes event handlers and style attributes', () => {
    expect(sanitizeRichText('<img src=x onerror=alert(1)>')).toBe('<img src="x" />');
    expect(sanitizeRichText('<p onclick="alert(1)" onmouseover="x()">x</p>')).toBe('<p>x</p>');
    expect(sanitizeRichText('<div style="width: expression(alert(1))">x</div>')).toBe('<div>x</div>');
    expect(sanitizeRichText('<p class="c" id="i">x</p>')).toBe('<p>x</p>');
  });

  it('drops javascript:, data: and other non-allowed URLs', () => {
    for (const href of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      ' javascript:alert(1)',
      'java\tscript:alert(1)',
      'javascript&colon;alert(1)',
      '&#106;avascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      'ftp://e.com/f',
    ]) {
      expect(sanitizeRichText(`<a href="${href}">x</a>`)).toBe('<a>x</a>');
    }
    expect(sanitizeRichText('<img src="data:image/svg+xml;base64,PHN2Zz4=" alt="a">')).toBe(
      '<img alt="a" />',
    );
    expect(sanitizeRichText('<math><mi xlink:href="javascript:alert(1)">x</mi></math>')).toBe(''); // foreign MathML content is dropped whole
  });

  it('keeps http, https, mailto, tel and relative URLs', () => {
    const html =
      '<a href="http://e.com">a</a><a href="https://e.com/?a=1&amp;b=2">b</a>' +
      '<a href="mailto:a@b.c">c</a><a href="tel:+15550100">d</a><a href="/event/x/">e</a>';
    expect(sanitizeRichText(html)).toBe(html);
  });

  it('adds rel="noopener noreferrer" to target=_blank links and drops unknown targets', () => {
    expect(sanitizeRichText('<a href="https://e.com" target="_blank">x</a>')).toBe(
      '<a href="https://e.com" target="_blank" rel="noopener noreferrer">x</a>',
    );
    expect(sanitizeRichText('<a href="https://e.com" rel="nofollow" target="_BLANK">x</a>')).toBe(
      '<a href="https://e.com" target="_blank" rel="nofollow noopener noreferrer">x</a>',
    );
    expect(sanitizeRichText('<a href="https://e.com" target="evil" rel="nofollow">x</a>')).toBe(
      '<a href="https://e.com" rel="nofollow">x</a>',
    );
  });

  it('drops HTML comments (block editor markers)', () => {
    expect(sanitizeRichText('<!-- wp:paragraph --><p>x</p><!-- /wp:paragraph -->')).toBe('<p>x</p>');
  });

  it('is idempotent, also where its output of broken markup parses differently', () => {
    const once = sanitizeRichText('<p><A</p><p>');
    expect(sanitizeRichText(once)).toBe(once);
  });

  it('is idempotent', () => {
    const tags = fc.constantFrom('p', 'a', 'script', 'img', 'b', 'svg', 'iframe', 'span');
    const attr = fc.constantFrom(
      '',
      ' href="javascript:alert(1)"',
      ' href="https://e.com" target="_blank"',
      ' onerror="x()"',
      ' src="x"',
      ' rel="nofollow" target="_blank"',
    );
    const piece = fc.oneof(
      fc.string(),
      fc.tuple(tags, attr).map(([t, a]) => `<${t}${a}>`),
      tags.map((t) => `</${t}>`),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (parts) => {
        const once = sanitizeRichText(parts.join(''));
        expect(sanitizeRichText(once)).toBe(once);
        expect(once).not.toMatch(/<script|javascript:|onerror=/i);
      }),
    );
  });
});

describe('sanitizeRichText of texts seen before', () => {
  it('answers a repeated text as it did the first time, also after many other texts', () => {
    const text =
      '<p onclick="x()">Weekly <script>alert(1)</script><a href="javascript:x" target="_blank">class</a></p>';
    const first = sanitizeRichText(text);
    expect(first).toBe('<p>Weekly <a target="_blank" rel="noopener noreferrer">class</a></p>');
    expect(sanitizeRichText(text)).toBe(first);
    for (let n = 0; n < 600; n++)
      expect(sanitizeRichText(`<b>${n}</b><img src=x onerror=y>`)).toBe(`<b>${n}</b><img src="x" />`);
    expect(sanitizeRichText(text)).toBe(first);
    expect(sanitizeRichText('')).toBe('');
  });
});

describe('toPlainText', () => {
  it('strips tags, keeps the text and trims', () => {
    expect(toPlainText('  Hello <b>World</b> ')).toBe('Hello World');
    expect(toPlainText('A<br/>B')).toBe('AB');
    expect(toPlainText('<p>Seeded event 251.</p>')).toBe('Seeded event 251.');
    expect(toPlainText('Plain title')).toBe('Plain title');
  });

  it('decodes nothing and escapes nothing', () => {
    expect(toPlainText('Rock &amp; Roll')).toBe('Rock &amp; Roll');
    expect(toPlainText('Rock & Roll')).toBe('Rock & Roll');
    expect(toPlainText('a < b > c')).toBe('a < b > c');
    expect(toPlainText('Tom\'s "quoted" title')).toBe('Tom\'s "quoted" title');
  });

  it('drops script/style content, comments and unterminated tags', () => {
    expect(toPlainText('<script>alert("x")</script>Title')).toBe('Title');
    expect(toPlainText('<STYLE>p{}</STYLE>ok')).toBe('ok');
    expect(toPlainText('<script>never closed')).toBe('');
    expect(toPlainText('<!-- c -->x<!-- open')).toBe('x');
    expect(toPlainText('Hi <b')).toBe('Hi');
    expect(toPlainText('<scripty>z</scripty>')).toBe('z');
  });

  it('copes with > inside quoted attribute values', () => {
    expect(toPlainText('<a title="x>y">Hi</a>')).toBe('Hi');
    expect(toPlainText("<img alt='a>b' src=x>pic")).toBe('pic');
  });

  it('is linear on hostile input', () => {
    const start = Date.now();
    toPlainText('<a'.repeat(200_000));
    toPlainText('<a x="'.repeat(100_000));
    expect(Date.now() - start).toBeLessThan(2000);
  });
});

describe('escapeHtml', () => {
  it('escapes the five HTML-special characters', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    expect(escapeHtml('Food &amp; Drink')).toBe('Food &amp;amp; Drink');
    expect(escapeHtml('plain')).toBe('plain');
  });
});

describe('htmlToText (what text-only readers get: .ics, json_ld)', () => {
  it('decodes entities, in titles without tags as in descriptions', () => {
    expect(htmlToText('Rock &amp; Roll')).toBe('Rock & Roll');
    expect(htmlToText('Rock &#038; Roll &ndash; caf&eacute;')).toBe('Rock & Roll – café');
    expect(htmlToText('<p>Rock &amp; Roll &lt;live&gt;</p>')).toBe('Rock & Roll <live>');
    expect(htmlToText('AT&T, a < b')).toBe('AT&T, a < b');
  });

  it('keeps where links point, once', () => {
    expect(htmlToText('<p>See <a href="https://x.org/program">our site</a>.</p>')).toBe(
      'See our site (https://x.org/program).',
    );
    expect(htmlToText('<a href="https://x.org/">https://x.org</a>')).toBe('https://x.org');
    expect(htmlToText('<a href="mailto:info@x.org">write to us</a>')).toBe('write to us (info@x.org)');
    expect(htmlToText('<a href="mailto:info@x.org">info@x.org</a>')).toBe('info@x.org');
    expect(htmlToText('<a href="#top">top</a>')).toBe('top');
  });

  it('turns paragraphs, list items and line breaks into lines, and collapses other white space', () => {
    expect(
      htmlToText(
        '<p>First\n   paragraph</p>\n<p>Two<br>lines</p><ul><li>one</li><li>two</li></ul><p>end</p>',
      ),
    ).toBe('First paragraph\n\nTwo\nlines\n\n- one\n- two\n\nend');
    expect(htmlToText('Plain text\nwith its own lines')).toBe('Plain text\nwith its own lines');
    expect(htmlToText('<pre>a\n  b</pre>')).toBe('a\n  b');
  });

  it('drops what nobody reads (scripts, styles, comments)', () => {
    expect(htmlToText('<p>A<script>alert(1)</script><style>p{}</style><!-- note -->B</p>')).toBe('AB');
  });

  it('turns long descriptions into text in time linear in their length (every event read builds json_ld)', () => {
    // Shapes where trimming line ends with a regex backtracked: many paragraphs, a long run of spaces in
    // <pre>, a link whose text is a long run of slashes. Each took seconds at this size.
    const hostile = [
      '<p>x</p>'.repeat(60_000),
      `<pre>${' '.repeat(60_000)}x</pre>`,
      `<a href="https://x.org">${'/'.repeat(60_000)}x</a>`,
      '<li><a href="https://x.org/a">x</a></li>'.repeat(30_000),
    ];
    for (const html of hostile) {
      const started = performance.now();
      const text = htmlToText(html);
      expect(performance.now() - started, html.slice(0, 24)).toBeLessThan(1_000);
      expect(text).toContain('x');
    }
    expect(htmlToText('<pre>a  \t\nb</pre>')).toBe('a\nb');
    expect(htmlToText('<a href="https://x.org/a">x.org/a//</a>')).toBe('x.org/a//');
  });
});

describe('htmlToText of remote messages', () => {
  it('reads a message written as HTML as the text a person sees', () => {
    expect(
      htmlToText('<strong>Error:</strong> Unknown username. Check again or try your email address.'),
    ).toBe('Error: Unknown username. Check again or try your email address.');
    expect(htmlToText('Rock &amp; roll &#8217;n&#x2019; <em>more</em>&hellip;')).toBe(
      'Rock & roll ’n’ more…',
    );
  });
});
