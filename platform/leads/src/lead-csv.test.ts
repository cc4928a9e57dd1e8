import { describe, expect, it } from 'vitest';
import { csvCell, leadsCsv } from './lead-csv';

describe('CSV export', () => {
  it('escapes cells as RFC 4180 says and defuses formulas', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(' padded ')).toBe('" padded "');
    expect(csvCell('=1+2')).toBe("'=1+2");
    expect(csvCell('+61 411')).toBe("'+61 411");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell(null)).toBe('');
    expect(csvCell(true)).toBe('true');
    expect(csvCell({ a: 'b,c' })).toBe('"{""a"":""b,c""}"');
  });

  it('writes a header and one CRLF line per lead, other fields as JSON', () => {
    const csv = leadsCsv([
      {
        id: 7,
        site_id: 1,
        category: 'General Enquiry',
        lead_status: 'New',
        payload: { name: 'Jane', message: 'Hi, there', 'Trade-in km': 12000 },
        created_at: Date.UTC(2025, 0, 2),
        updated_at: Date.UTC(2025, 0, 2),
        form_completed: true,
        has_files: false,
        suspected_spam: false,
        spam_reason: null,
        mock: false,
        completed_at: Date.UTC(2025, 0, 2),
        delivery: { state: 'delivered', targets: [] },
      },
    ]);
    const [header, row, end] = csv.split('\r\n');
    expect(header).toMatch(/^id,created_at,updated_at,category,lead_status,name,middle_name,last_name,email,phone,/);
    expect(row).toMatch(/^7,2025-01-02T00:00:00\.000Z,2025-01-02T00:00:00\.000Z,General Enquiry,New,Jane,,,,,/);
    expect(row).toContain('"Hi, there"');
    expect(row).toMatch(/,delivered,"\{""Trade-in km"":12000\}"$/);
    expect(end).toBe('');
  });
});
