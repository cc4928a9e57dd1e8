import { beforeAll, describe, expect, it } from 'vitest';
import { leadToAdf } from '@dealer/leads/adf';
import { escapeXmlAttr, escapeXmlText, stripInvalidXmlChars } from '@dealer/leads/adf-xml';
import { validateAdfStructure } from '@dealer/testing/adf-validate';
import type { DeliverableFile } from '@dealer/leads/deliverable-lead';
import { lead, loadJsdom, metro, parse, shopper, textAt, usedCarEnquiry } from '../testing/adf-leads';

// The ADF document of a lead with files, the XML escaping of what a shopper typed, and the ADF
// structure check the tests use (validateAdfStructure). The document of each kind of enquiry is in
// adf.enquiries.test.ts.

beforeAll(loadJsdom);

describe('leadToAdf with files', () => {
  const link = (id: number) => `${metro.url}/api/lead-files/${id}?expires=1749168942&sig=${'s'.repeat(43)}`;
  const file = (id: number, name: string, stored: string, url: string | null = link(id)): DeliverableFile => ({
    id,
    name,
    contentType: stored.endsWith('.pdf') ? 'application/pdf' : 'image/jpeg',
    size: 2_400_000,
    absolutePath: `/data/uploads/metro-motor-group/42/${stored}`,
    url,
  });
  const payload = {
    ...shopper,
    category: 'Sell My Car Enquiry',
    'Vehicle Make': 'Mazda',
    'Vehicle Model': 'CX-5',
    has_files: true,
    files: [
      { name: 'front.jpg', content_type: 'image/jpeg', size: 2_400_000 },
      { name: 'front.jpg', content_type: 'image/jpeg', size: 2_400_000 },
      { name: 'rego papers', content_type: 'application/pdf', size: 2_400_000 },
    ],
  };
  const files = [file(7, 'front.jpg', 'a1.jpg'), file(8, 'front.jpg', 'b2.jpg'), file(9, 'rego papers', 'c3.pdf')];
  const comments = (xml: string) => textAt(parse(xml), 'customer > comments') ?? '';

  it('lists each file with its delivered name, type, size and link instead of "Files attached: Yes"', () => {
    const xml = leadToAdf(lead(metro, payload, null, 42, files));
    expect(validateAdfStructure(xml)).toEqual([]);
    // The links' & is escaped in the document and comes back whole.
    expect(xml).toContain('&amp;sig=');
    const text = comments(xml);
    expect(text).toContain(
      [
        'Files (3):',
        `- front.jpg (image/jpeg, 2.3 MB): ${link(7)}`,
        `- front (2).jpg (image/jpeg, 2.3 MB): ${link(8)}`,
        `- rego papers.pdf (application/pdf, 2.3 MB): ${link(9)}`,
      ].join('\n'),
    );
    expect(text).not.toContain('Files attached: Yes');
    // The payload's own list of names is not repeated beside the list with links.
    expect(text).not.toMatch(/^files:/m);
  });

  it('adds the note after the list, and only when there are files', () => {
    const note = 'The files are attached to this e-mail.';
    expect(comments(leadToAdf(lead(metro, payload, null, 42, files), { filesNote: note }))).toMatch(
      /- rego papers\.pdf .*\nThe files are attached to this e-mail\./,
    );
    expect(leadToAdf(lead(metro, shopper), { filesNote: note })).toBe(leadToAdf(lead(metro, shopper)));
  });

  it('a file without a link points to the dealer admin', () => {
    const text = comments(leadToAdf(lead(metro, payload, null, 42, [file(7, 'front.jpg', 'a1.jpg', null)])));
    expect(text).toContain('- front.jpg (image/jpeg, 2.3 MB): see the lead in the dealer admin');
  });

  it('a lead marked has_files whose files are not known keeps saying so', () => {
    const text = comments(leadToAdf(lead(metro, { ...shopper, has_files: true })));
    expect(text).toContain('Files attached: Yes (see the lead in the dealer admin)');
  });
});

describe('XML escaping', () => {
  it.each([
    ['a & b', 'a &amp; b'],
    ['<tag>', '&lt;tag&gt;'],
    [']]>', ']]&gt;'],
    ['bell\u0007 nul\u0000 ok\ttab', 'bell nul ok\ttab'],
    ['\uD83D\uDE97 car', '\uD83D\uDE97 car'],
    ['lone \uDC00 low', 'lone  low'],
  ])('text %j', (input, output) => {
    expect(escapeXmlText(input)).toBe(output);
  });

  it('escapes quotes and whitespace in attributes', () => {
    expect(escapeXmlAttr(`"it's"\n`)).toBe('&quot;it&apos;s&quot;&#10;');
  });

  it('strips U+FFFE and U+FFFF', () => {
    expect(stripInvalidXmlChars('a\uFFFEb\uFFFFc')).toBe('abc');
  });
});

describe('validateAdfStructure', () => {
  const good = leadToAdf(usedCarEnquiry);

  it.each([
    ['not well-formed', good.replace('</adf>', ''), /not well-formed/],
    ['no XML declaration', good.replace('<?xml version="1.0"?>\n', ''), /XML declaration/],
    ['no ADF instruction', good.replace('<?ADF VERSION="1.0"?>\n', ''), /processing instruction/],
    ['no vehicle', good.replace(/<vehicle[\s\S]*<\/vehicle>\n\s*/, ''), /prospect: children/],
    ['vehicle without model', good.replace(/<model>[^<]*<\/model>/, ''), /vehicle: children/],
    ['requestdate not ISO 8601', good.replace(/<requestdate>[^<]*</, '<requestdate>06/05/2025 11:15<'), /ISO 8601/],
    ['bad interest', good.replace('interest="buy"', 'interest="rent"'), /interest="rent"/],
    ['bad odometer units', good.replace('units="km"', 'units="furlongs"'), /units="furlongs"/],
    [
      'customer without email or phone',
      good.replace(/<email>[^<]*<\/email>/, '').replace(/<phone type="voice">[^<]*<\/phone>/, ''),
      /neither email nor phone/,
    ],
    [
      'empty customer name',
      good.replace(/(<name part="first" type="individual">)[^<]*/, '$1').replace(/(<name part="last" type="individual">)[^<]*/, '$1'),
      /no name/,
    ],
    ['empty vendorname', good.replace(/<vendorname>[^<]*</, '<vendorname><'), /vendorname: empty/],
    ['unknown element', good.replace('<requestdate>', '<foo>bar</foo><requestdate>'), /<foo> is not an ADF 1.0 element/],
    [
      'customer before vehicle',
      good.replace(/(<vehicle[\s\S]*<\/vehicle>)(\s*)(<customer>[\s\S]*<\/customer>)/, '$3$2$1'),
      /prospect: children/,
    ],
  ])('reports %s', (_label, xml, problem) => {
    const problems = validateAdfStructure(xml);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.join('\n')).toMatch(problem);
  });
});
