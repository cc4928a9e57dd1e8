import { describe, expect, it } from 'vitest';
import { csvDocuments, csvRecords, jsonDocuments, ndjsonDocuments } from './document-formats';

describe('CSV records (RFC 4180)', () => {
  it.each([
    [
      'a,b\n1,2',
      [
        ['a', 'b'],
        ['1', '2'],
      ],
    ],
    [
      'a,b\r\n1,2\r\n',
      [
        ['a', 'b'],
        ['1', '2'],
      ],
    ],
    [
      'a,b\r1,2',
      [
        ['a', 'b'],
        ['1', '2'],
      ],
    ],
    ['"x, y","say ""hi"""', [['x, y', 'say "hi"']]],
    ['"two\nlines",b', [['two\nlines', 'b']]],
    [
      'a,,c\n,,',
      [
        ['a', '', 'c'],
        ['', '', ''],
      ],
    ],
    ['""', [['']]],
    ['a\n\n\nb\n', [['a'], ['b']]],
    ['in"side,b', [['in"side', 'b']]],
  ])('reads %j', (text, records) => {
    expect(csvRecords(text, ',')).toEqual(records);
  });

  it('splits on the delimiter given, and keeps commas then', () => {
    expect(csvRecords('a;b,c\n"1;2";3', ';')).toEqual([
      ['a', 'b,c'],
      ['1;2', '3'],
    ]);
  });
});

describe('CSV documents, typed as Meilisearch types them', () => {
  it('reads typed headers: numbers trimmed, booleans strict, strings as they are, empty cells null', () => {
    expect(csvDocuments('id:number,n:number,ok:boolean,name,note:string,a:b:c\n 7 ,-1.5e2,false, Hi ,,x', ',')).toEqual([
      { id: 7, n: -150, ok: false, name: ' Hi ', note: null, 'a:b:c': 'x' },
    ]);
  });

  it('strips a byte order mark, and reads a header alone as no documents', () => {
    expect(csvDocuments('\uFEFFid:number\n1', ',')).toEqual([{ id: 1 }]);
    expect(csvDocuments('id,name\n', ',')).toEqual([]);
  });

  it('refuses a number or a boolean it cannot read, naming the line', () => {
    expect(() => csvDocuments('id:number\n1\n0x10', ',')).toThrow(
      'The `csv` payload provided is malformed: `Error parsing number "0x10" at line 2: invalid float literal`.',
    );
    expect(() => csvDocuments('ok:boolean\nTrue', ',')).toThrow('Error parsing boolean "True" at line 1');
  });
});

describe('NDJSON and JSON documents', () => {
  it('reads one object a line, and refuses anything else', () => {
    expect(ndjsonDocuments('{"id":1}\r\n{"id":2}')).toEqual([{ id: 1 }, { id: 2 }]);
    expect(() => ndjsonDocuments('{"id":1}\n2')).toThrow('data are neither an object nor a list of objects');
    expect(() => ndjsonDocuments('  \n')).toThrow('A ndjson payload is missing.');
  });

  it('takes one object or a list of them', () => {
    expect(jsonDocuments({ id: 1 })).toEqual([{ id: 1 }]);
    expect(() => jsonDocuments([{ id: 1 }, 'two'])).toThrow('data are neither an object nor a list of objects');
    expect(() => jsonDocuments(undefined)).toThrow('A json payload is missing.');
  });
});
