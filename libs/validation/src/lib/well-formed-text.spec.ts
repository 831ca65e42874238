import { IsEmail, IsString } from 'class-validator';
import { validateContract } from './validate-contract';
import { describeTextFault, findMalformedText, MAX_TEXT_LENGTH, textProblem } from './well-formed-text';

describe('textProblem', () => {
  it.each([
    ['plain', 'Acme Pagamentos'],
    ['accents and emoji (surrogate pairs)', 'São Paulo 😀 𝄞'],
    ['tab, line feed, carriage return', 'a\tb\nc\r\n'],
    ['C1 controls and noncharacters (PostgreSQL stores them)', '\u0085\uFFFE'],
    ['empty', ''],
    ['exactly the bound', 'x'.repeat(MAX_TEXT_LENGTH)],
  ])('takes %s', (_name, text) => {
    expect(textProblem(text)).toBeUndefined();
  });

  it.each([
    ['NUL', 'a\u0000b', 'holds a control character (U+0000)'],
    ['another C0 control', 'bell\u0007', 'holds a control character (U+0007)'],
    ['escape', '\u001B[31m', 'holds a control character (U+001B)'],
    ['a lone high surrogate', 'x\uD800', 'holds a lone surrogate (U+D800)'],
    ['a lone low surrogate', '\uDC00x', 'holds a lone surrogate (U+DC00)'],
    ['a pair reversed', '\uDE00\uD83D', 'holds a lone surrogate (U+DE00)'],
    ['an overlong string', 'x'.repeat(MAX_TEXT_LENGTH + 1), `is longer than ${MAX_TEXT_LENGTH} characters`],
  ])('refuses %s, naming it by code point, never quoting it', (_name, text, problem) => {
    expect(textProblem(text)).toBe(problem);
  });

  it('refuses tab, line breaks and DEL too where they have no business (a header)', () => {
    expect(textProblem('a\tb', { lineBreaks: false })).toBe('holds a control character (U+0009)');
    expect(textProblem('a\u007F', { lineBreaks: false })).toBe('holds a control character (U+007F)');
    expect(textProblem('pk_sandbox_abc', { lineBreaks: false })).toBeUndefined();
  });
});

describe('findMalformedText', () => {
  it('finds nothing in well-formed JSON of any shape', () => {
    expect(findMalformedText({ a: ['x', 1, null, { b: 'ü' }], c: true })).toBeUndefined();
    expect(findMalformedText(42)).toBeUndefined();
    expect(findMalformedText(undefined)).toBeUndefined();
  });

  it('gives the dotted path of a nested value, array items by index', () => {
    expect(findMalformedText({ owners: [{ name: 'ok' }, { name: 'a\u0000' }] })).toEqual({
      field: 'owners.1.name',
      inKey: false,
      problem: 'holds a control character (U+0000)',
    });
  });

  it('finds a bad key, naming the object that holds it, not the key', () => {
    expect(findMalformedText({ metadata: { ['\uD800']: 1 } })).toEqual({
      field: 'metadata',
      inKey: true,
      problem: 'holds a lone surrogate (U+D800)',
    });
    expect(findMalformedText({ ['k\u0000']: 1 })).toEqual({ field: '', inKey: true, problem: 'holds a control character (U+0000)' });
  });

  it('reports the first bad field in the order sent', () => {
    expect(findMalformedText({ a: 'ok', b: '\u0001', c: '\u0002' })?.field).toBe('b');
  });

  it('walks a value nested far deeper than the stack allows recursion', () => {
    let value: unknown = '\u0000';
    for (let i = 0; i < 100_000; i++) value = [value];
    expect(findMalformedText(value)?.problem).toBe('holds a control character (U+0000)');
  });

  it('describes a fault with where it is', () => {
    expect(describeTextFault({ field: 'metadata.external_id', inKey: false, problem: 'holds a control character (U+0000)' })).toBe(
      'field metadata.external_id holds a control character (U+0000)',
    );
    expect(describeTextFault({ field: 'metadata', inKey: true, problem: 'holds a lone surrogate (U+D800)' })).toBe(
      'a field name in metadata holds a lone surrogate (U+D800)',
    );
    expect(describeTextFault({ field: 'cursor', inKey: false, problem: 'is longer than 4096 characters' }, 'query parameter')).toBe(
      'query parameter cursor is longer than 4096 characters',
    );
  });
});

class Contact {
  @IsString() name!: string;
  @IsEmail() email!: string;
}

describe('validateContract on text that is not well-formed (every Kafka consumer validates with it)', () => {
  it('refuses a lone surrogate before IsEmail sees it (validator throws URIError on it)', () => {
    expect(validateContract(Contact, { name: 'x', email: 'a\uD800@example.com' })).toEqual({
      ok: false,
      error: { code: 'invalid_request', field: 'email', message: 'field email holds a lone surrogate (U+D800)' },
    });
  });

  it('refuses a NUL, which PostgreSQL would refuse, with the field path', () => {
    expect(validateContract(Contact, { name: 'a\u0000', email: 'a@example.com' })).toMatchObject({
      ok: false,
      error: { field: 'name', message: expect.stringContaining('U+0000') },
    });
  });

  it('refuses a bad key of an unknown field too, without naming it', () => {
    const result = validateContract(Contact, { name: 'x', email: 'a@example.com', ['\u0000']: 1 });
    expect(result).toEqual({ ok: false, error: { code: 'invalid_request', message: 'a field name holds a control character (U+0000)' } });
  });
});
