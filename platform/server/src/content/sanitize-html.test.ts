import { beforeAll, describe, expect, it } from 'vitest';
import type { ContentBlock } from '@dealer/contracts/content';
import { richTextTags, sanitizeBlocks, sanitizeRichText } from './sanitize-html';

type JsdomModule = {
  JSDOM: new (markup: string, options?: { url?: string; runScripts?: 'outside-only' }) => { window: { document: Document } };
};
let JSDOM: JsdomModule['JSDOM'];
beforeAll(async () => {
  // jsdom ships no type declarations; the test only needs its constructor.
  ({ JSDOM } = (await import('jsdom' as string)) as JsdomModule);
});

const pageUrl = 'https://www.dealer.example/about';
const allowedTags = new Set<string>(richTextTags);
const linkAttributes = new Set(['href', 'title', 'target', 'rel']);
const allowedProtocols = new Set(['http:', 'https:', 'mailto:', 'tel:']);

/**
 * What is wrong with `html` once a browser reads it, as the shop shows it: inside a page (the server's
 * render) and set as a div's innerHTML (the shell's). jsdom parses as the HTML standard says, with
 * scripting on (so noscript is raw text, as in a shopper's browser); an empty list is a clean text.
 */
function problemsInBrowser(html: string): string[] {
  const problems: string[] = [];
  const page = new JSDOM(`<!doctype html><html><head></head><body><div id="text">${html}</div></body></html>`, {
    url: pageUrl,
    runScripts: 'outside-only',
  }).window.document;
  const inner = page.createElement('div');
  inner.innerHTML = html;
  const wrapper = page.getElementById('text');
  // Every element of the page, head included, but its frame: markup that escaped the div is checked too.
  const elements = [
    ...[...page.querySelectorAll('*')].filter((element) => !['HTML', 'HEAD', 'BODY'].includes(element.tagName) && element !== wrapper),
    ...inner.querySelectorAll('*'),
  ];
  // Markup such as <body onload> gives its attributes to the page's own elements.
  for (const frame of [page.documentElement, page.head, page.body, wrapper!]) {
    if (frame.attributes.length !== (frame === wrapper ? 1 : 0))
      problems.push(`attributes given to the page's <${frame.tagName.toLowerCase()}>`);
  }
  for (const element of elements) {
    const tag = element.tagName.toLowerCase();
    if (element.namespaceURI !== 'http://www.w3.org/1999/xhtml' || !allowedTags.has(tag)) problems.push(`element <${tag}>`);
    for (const { name } of element.attributes) {
      if (name.toLowerCase().startsWith('on')) problems.push(`${name} on <${tag}>`);
      else if (['style', 'id', 'class'].includes(name.toLowerCase())) problems.push(`${name} on <${tag}>`);
      else if (tag !== 'a' || !linkAttributes.has(name)) problems.push(`attribute ${name} on <${tag}>`);
    }
    if (tag !== 'a' || !element.hasAttribute('href')) continue;
    const link = element as HTMLAnchorElement;
    const written = link.getAttribute('href')!;
    // `link.href` is the address the browser would open, after its own decoding and clean-up.
    const opens = new URL(link.href);
    if (!allowedProtocols.has(opens.protocol)) problems.push(`link to ${opens.protocol} (${JSON.stringify(written)})`);
    const sameSite = opens.origin === new URL(pageUrl).origin;
    if (opens.protocol.startsWith('http') && !sameSite && !/^https?:\/\//i.test(written)) {
      problems.push(`link to another site (${opens.host}) written as ${JSON.stringify(written)}`);
    }
    if (/^https?:\/\//i.test(written) && (link.target !== '_blank' || link.rel !== 'noopener noreferrer')) {
      problems.push(`external link without target _blank and rel noopener noreferrer: ${JSON.stringify(written)}`);
    }
  }
  // Each problem once, though both readings find it.
  return [...new Set(problems)];
}

const payloads: [string, string][] = [
  ['script', '<script>alert(1)</script>'],
  ['script from another site, uppercase', '<SCRIPT SRC=//evil.example/x.js></SCRIPT>'],
  ['img onerror', '<img src=x onerror=alert(1)>'],
  ['img onerror, uppercase', '<IMG SRC=x ONERROR=alert(1)>'],
  ['svg onload', '<svg onload=alert(1)>'],
  ['script inside svg', '<svg><script>alert(1)</script></svg>'],
  ['iframe srcdoc', '<iframe srcdoc="<script>alert(1)</script>"></iframe>'],
  ['iframe javascript: with fallback markup', '<iframe src="javascript:alert(1)"><img src=x onerror=alert(1)></iframe>'],
  ['object', '<object data="javascript:alert(1)"><param name="x" value="y"></object>'],
  ['embed', '<embed src="data:text/html,<script>alert(1)</script>">'],
  ['base href', '<base href="//evil.example/"><p>x</p>'],
  ['meta refresh', '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">'],
  ['form action', '<form action="javascript:alert(1)"><button formaction="javascript:alert(1)">Go</button></form>'],
  ['style element', "<style>@import 'https://evil.example/x.css'; body{background:url(javascript:alert(1))}</style>"],
  ['style attribute with url(javascript:)', '<p style="background:url(javascript:alert(1))">x</p>'],
  ['link element', '<link rel="stylesheet" href="https://evil.example/x.css">'],
  ['javascript: link', '<a href="javascript:alert(1)">x</a>'],
  ['mixed-case javascript: link', '<a href="JaVaScRiPt:alert(1)">x</a>'],
  ['javascript: with an encoded tab', '<a href="jav&#x09;ascript:alert(1)">x</a>'],
  ['javascript: with a named tab', '<a href="javas&Tab;cript:alert(1)">x</a>'],
  ['javascript: with an encoded newline', '<a href="jav&#x0A;ascript:alert(1)">x</a>'],
  ['javascript: with a tab', '<a href="jav\tascript:alert(1)">x</a>'],
  ['javascript: with a newline', '<a href="java\nscript:alert(1)">x</a>'],
  ['javascript: with a NUL', '<a href="java\0script:alert(1)">x</a>'],
  ['javascript: after a space', '<a href=" javascript:alert(1)">x</a>'],
  ['javascript: after a control character', '<a href="&#14;javascript:alert(1)">x</a>'],
  ['javascript: entity-encoded', '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">x</a>'],
  ['javascript: hex entities and &colon;', '<a href="&#x6A;avascript&colon;alert(1)">x</a>'],
  ['javascript: padded entity without semicolon', '<a href="&#0000106avascript:alert(1)">x</a>'],
  ['data:text/html link', '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>'],
  ['vbscript: link', '<a href="vbscript:msgbox(1)">x</a>'],
  ['protocol-relative link', '<a href="//evil.example/">x</a>'],
  ['slash-backslash link', '<a href="/\\evil.example/">x</a>'],
  ['backslashes link', '<a href="\\\\evil.example/">x</a>'],
  ['slash-tab-slash link', '<a href="/\t/evil.example/">x</a>'],
  ['svg xlink:href', '<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>'],
  ['math href', '<math href="javascript:alert(1)">x</math>'],
  ['noscript mXSS', '<noscript><p title="</noscript><img src=x onerror=alert(1)>">'],
  ['math/mglyph/style mXSS', '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>'],
  ['comment mXSS', '<!--<img src="--><img src=x onerror=alert(1)//">'],
  ['xmp raw text', '<xmp><img src=x onerror=alert(1)></xmp>'],
  ['textarea inside svg', '<svg><textarea><img src=x onerror=alert(1)></textarea></svg>'],
  ['CDATA inside svg', '<svg><![CDATA[><img src=x onerror=alert(1)>]]></svg>'],
  ['template', '<template><img src=x onerror=alert(1)></template>'],
  ['select and option', '<select><option><img src=x onerror=alert(1)></option></select>'],
  ['plaintext', '<plaintext><img src=x onerror=alert(1)>'],
  ['details ontoggle', '<details open ontoggle=alert(1)><summary>x</summary></details>'],
  ['input autofocus onfocus', '<input autofocus onfocus=alert(1)>'],
  ['body onload', '<body onload=alert(1)><p>x</p></body>'],
  ['split script tag', '<scr<script>ipt>alert(1)</script>'],
  ['unclosed tag with a handler', '<p onclick="alert(1)" ONMOUSEOVER=alert(1)>x'],
  ['unclosed link', '<a href="javascript:alert(1)"'],
  ['allowed tags with bad attributes', '<a href="https://ok.example/" onclick="alert(1)" style="color:red" class="c" id="i">ok</a>'],
  ['ids, classes and styles', '<div id="x" class="y"><span style="color:red">t</span><p data-x="y" title="t">p</p></div>'],
];

describe('formatted text a dealer writes, after cleaning, read by a browser', () => {
  it('the browser check itself finds each kind of problem in text that was not cleaned', () => {
    expect(problemsInBrowser('<p>fine <a href="/about">link</a></p>')).toEqual([]);
    expect(problemsInBrowser('<img src=x onerror=alert(1)>')).toEqual(['element <img>', 'attribute src on <img>', 'onerror on <img>']);
    expect(problemsInBrowser('<a href="jav&#x09;ascript:alert(1)">x</a>')).toEqual(['link to javascript: ("jav\\tascript:alert(1)")']);
    expect(problemsInBrowser('<a href="/\\evil.example/">x</a>')).toEqual([
      'link to another site (evil.example) written as "/\\\\evil.example/"',
    ]);
    expect(problemsInBrowser('<p class="c">x</p><style>p{}</style>')).toEqual(['class on <p>', 'element <style>']);
    expect(problemsInBrowser('<a href="https://ok.example/">x</a>')).toEqual([
      'external link without target _blank and rel noopener noreferrer: "https://ok.example/"',
    ]);
  });

  it('finds a problem in every payload as sent (but a NUL in javascript:, which a browser reads as U+FFFD, so no scheme)', () => {
    const harmless = payloads.filter(([, payload]) => problemsInBrowser(payload).length === 0).map(([name]) => name);
    expect(harmless).toEqual(['javascript: with a NUL']);
  });

  it.each(payloads)('%s: nothing a browser would run or open survives, and cleaning again changes nothing', (_name, payload) => {
    const cleaned = sanitizeRichText(payload);
    expect(problemsInBrowser(cleaned)).toEqual([]);
    expect(sanitizeRichText(cleaned)).toBe(cleaned);
  });

  it('drops the contents of script, style and the like, rather than showing them as text', () => {
    expect(sanitizeRichText('<script>alert(1)</script><style>p{color:red}</style><p>Open Saturdays.</p><textarea>secret</textarea>')).toBe(
      '<p>Open Saturdays.</p>',
    );
    expect(sanitizeRichText('<div><span>Kept</span> text</div>')).toBe('Kept text');
  });

  it.each([
    ['a paragraph with a link to a page of the site', '<p>Meet <a href="/about">our team</a> today.</p>'],
    ['lists', '<ul><li>Servicing</li><li>Tyres</li></ul><ol><li>Book</li><li>Drop off</li></ol>'],
    ['headings', '<h2>Service</h2><h3>Hours</h3><h4>Weekends</h4>'],
    ['emphasis and line breaks', '<p><strong>Bold</strong> <em>leaning</em> <b>b</b> <i>i</i> <u>u</u> <s>was $40</s><br />next line</p>'],
    ['a quote', '<blockquote><p>Great service, thanks Sam.</p></blockquote>'],
    [
      'a link to another site, with a title',
      '<p><a href="https://www.lender.example/apply?car=1&amp;term=60" title="Our lender" target="_blank" rel="noopener noreferrer">Apply</a></p>',
    ],
    [
      'e-mail, phone and in-page links',
      '<p><a href="mailto:sales@dealer.example">Write</a>, <a href="tel:+61299990000">call</a> or <a href="#hours">see hours</a>.</p>',
    ],
    ['escaped text', '<p>Fish &amp; chips &lt;3 "quoted"</p>'],
  ])('keeps %s as written', (_name, html) => {
    expect(sanitizeRichText(html)).toBe(html);
    expect(problemsInBrowser(html)).toEqual([]);
  });

  it('opens links to other sites in a new tab without giving them the page, whatever target and rel were sent', () => {
    expect(sanitizeRichText('<a href="https://a.example/" target="_self" rel="opener">A</a>')).toBe(
      '<a href="https://a.example/" target="_blank" rel="noopener noreferrer">A</a>',
    );
    expect(sanitizeRichText('<a href="/finance" target="_blank" rel="opener">Finance</a>')).toBe('<a href="/finance">Finance</a>');
  });

  it('makes an h1 an h2 (the page title is the h1) and closes what was left open', () => {
    expect(sanitizeRichText('<h1>About us</h1><P>We <B>open')).toBe('<h2>About us</h2><p>We <b>open</b></p>');
  });
});

describe('the html fields of a page’s blocks', () => {
  it('cleans rich text and FAQ answers and leaves every other field as it was', () => {
    const blocks: ContentBlock[] = [
      { type: 'rich_text', id: 'intro', html: '<p onclick="x()">Hi<script>alert(1)</script></p>' },
      {
        type: 'faq',
        id: 'questions',
        items: [{ question: 'Do you <b>finance</b>?', answer_html: '<p>Yes, <a href="javascript:alert(1)">apply</a>.</p>' }],
      },
      { type: 'cta', id: 'book', headline: '<b>Book</b>', button: { label: 'Book a service', to: '/service' } },
    ];
    expect(sanitizeBlocks(blocks)).toEqual([
      { type: 'rich_text', id: 'intro', html: '<p>Hi</p>' },
      { type: 'faq', id: 'questions', items: [{ question: 'Do you <b>finance</b>?', answer_html: '<p>Yes, apply.</p>' }] },
      blocks[2],
    ]);
    expect(blocks[0]).toMatchObject({ html: '<p onclick="x()">Hi<script>alert(1)</script></p>' });
  });
});
