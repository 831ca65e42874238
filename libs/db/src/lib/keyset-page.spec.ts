import { testPartnerId } from '@partner/testing';
import { keysetPageStatement } from './keyset-page';

const partner = testPartnerId();

describe('keysetPageStatement', () => {
  it('reads the first page below infinite bounds, one row more than the page, with only the filters given', () => {
    const { statement, values } = keysetPageStatement(
      'things_list',
      'things',
      'bigint',
      partner,
      { equals: { state: 'sent', document: undefined } },
      { limit: 10 },
    );
    expect(statement.name).toBe('things_list_state');
    expect(statement.text).toContain('WHERE partner_id = $1 AND state = $2');
    expect(statement.text).not.toContain('document');
    expect(statement.text).toContain('created_at >= $3 AND (created_at, id) < ($4::timestamptz, $5::bigint)');
    expect(statement.text).toMatch(/ORDER BY created_at DESC, id DESC\s+LIMIT \$6$/);
    expect(values).toEqual([partner, 'sent', '-infinity', 'infinity', '0', 11]);
  });

  it('resumes strictly after the position of a cursor, inside the creation interval, whatever order the filters come in', () => {
    const from = new Date('2026-11-01T00:00:00Z');
    const to = new Date('2026-12-01T00:00:00Z');
    const id = '468a9958-1d7a-4768-b9e5-c8ec39345f76';
    const a = keysetPageStatement(
      'keys_list',
      'keys',
      'uuid',
      partner,
      { equals: { state: 'pending', document: '52998224725' }, createdFrom: from, createdTo: to },
      { limit: 2, after: { atMs: 1_795_315_285_123, id } },
    );
    const b = keysetPageStatement(
      'keys_list',
      'keys',
      'uuid',
      partner,
      { equals: { document: '52998224725', state: 'pending' }, createdFrom: from, createdTo: to },
      { limit: 2, after: { atMs: 1_795_315_285_123, id } },
    );
    expect(a).toEqual(b);
    expect(a.statement.name).toBe('keys_list_document_state');
    expect(a.values).toEqual([partner, '52998224725', 'pending', from, new Date(1_795_315_285_123), id, 3]);
  });

  it('starts a page at created_to when the cursor is not below it: one bound, the tighter', () => {
    const to = new Date('2026-12-01T00:00:00Z');
    const first = keysetPageStatement('things_list', 'things', 'bigint', partner, { equals: {}, createdTo: to }, { limit: 5 });
    expect(first.values).toEqual([partner, '-infinity', to, '0', 6]);
    const later = keysetPageStatement(
      'things_list',
      'things',
      'bigint',
      partner,
      { equals: {}, createdTo: to },
      { limit: 5, after: { atMs: to.getTime() - 1, id: '9' } },
    );
    expect(later.values).toEqual([partner, '-infinity', new Date(to.getTime() - 1), '9', 6]);
  });
});
