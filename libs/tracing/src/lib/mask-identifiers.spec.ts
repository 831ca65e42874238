import { MASKED, maskIdentifiers, maskLogArguments, maskUrl } from './mask-identifiers';

describe('maskIdentifiers', () => {
  it.each([
    ['a CPF', 'user 52998224725 not found', `user ${MASKED} not found`],
    ['a formatted CPF', 'cpf 529.982.247-25', `cpf ${MASKED}`],
    ["a CPF with wrong check digits (still a partner's typo of one)", '52998224726', MASKED],
    ['a CNPJ', 'cnpj 11222333000181 taken', `cnpj ${MASKED} taken`],
    ['a formatted CNPJ', '11.222.333/0001-81', MASKED],
    ['an alphanumeric CNPJ', '12ABC34501DE35', MASKED],
    [
      'a document in a message key',
      'pix_key:0f8c7e2a-5d1b-4c3e-9a7f-6b2d1e0c9f8a:52998224725',
      `pix_key:0f8c7e2a-5d1b-4c3e-9a7f-6b2d1e0c9f8a:${MASKED}`,
    ],
    ['a document in a path', '/partner/v1/pix-key/52998224725', `/partner/v1/pix-key/${MASKED}`],
    ['several', '52998224725 and 11222333000181', `${MASKED} and ${MASKED}`],
    ['a phone in E.164', 'owner phone +5511987654321, ok', `owner phone ${MASKED}, ok`],
    ['a landline', '"phone":"+551133334444"', `"phone":"${MASKED}"`],
    ['an e-mail', 'send to maria.silva+pix@acme.com.br now', `send to ${MASKED} now`],
    ['an e-mail with a UTF-8 local part', 'josé.ñ@exemplo.com.br', MASKED],
    ['an e-mail in a query', '/x?email=a_b@c-d.io&limit=2', `/x?email=${MASKED}&limit=2`],
  ])('masks %s', (_label, text, masked) => {
    expect(maskIdentifiers(text)).toBe(masked);
  });

  it.each([
    ['a UUID', '0f8c7e2a-5d1b-4c3e-9a7f-123456789012'],
    ['an end-to-end id', 'E0000000020261122174439123abcdef12'],
    ['a Unix time in ms', 'at 1795315285123'],
    ['a withdrawal id and an amount', 'withdrawal 42 of 1000000 micros'],
    ['a request id', 'abc-123.5f1c2b9e3d4a'],
    ['a longer digit run', '123456789012345678'],
    ['a package version', 'pino@9.1.0 and kafkajs@2.2.4'],
    ['a scoped package in a stack', 'at (/app/node_modules/@nestjs/core/router/router-explorer.js:1:2)'],
    ['a signed amount', 'delta -1000000 +2000'],
  ])('leaves %s alone', (_label, text) => {
    expect(maskIdentifiers(text)).toBe(text);
  });
});

describe('maskIdentifiers on hostile text', () => {
  it.each([
    ['a long run without @', 'x'.repeat(200_000)],
    ['a long dotted domain without a letter label', `a@${'1.'.repeat(50_000)}1`],
    ['a long run of plus signs', '+'.repeat(200_000)],
  ])('takes linear time on %s', (_label, text) => {
    const started = process.hrtime.bigint();
    maskIdentifiers(text);
    // Quadratic backtracking would take minutes here; linear takes milliseconds (bound generous for a loaded machine).
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(2_000);
  });
});

describe('maskUrl', () => {
  it('decodes first, so a percent-encoded document is caught', () => {
    expect(maskUrl('/partner/v1/pix-key/529%2E982%2E247-25')).toBe(`/partner/v1/pix-key/${MASKED}`);
    expect(maskUrl('/partner/v1/pix-in?document=52998224725&limit=5')).toBe(`/partner/v1/pix-in?document=${MASKED}&limit=5`);
  });

  it('masks any long run of digits, so a document sent with a digit too many (holding a real one) is not logged', () => {
    expect(maskUrl('/partner/v1/pix-key/529982247250')).toBe(`/partner/v1/pix-key/${MASKED}`);
    expect(maskUrl('/partner/v1/withdrawals/usdt/1234567')).toBe('/partner/v1/withdrawals/usdt/1234567');
  });

  it('masks a URL that is not valid percent-encoding as it came', () => {
    expect(maskUrl('/partner/v1/pix-key/52998224725%')).toBe(`/partner/v1/pix-key/${MASKED}%`);
  });
});

describe('maskLogArguments', () => {
  it('masks the message, string fields and errors, and leaves other values as they are', () => {
    const error = new Error('duplicate key for 52998224725');
    const [fields, message] = maskLogArguments([{ url: '/x/52998224725', statusCode: 400, err: error }, 'refused 11222333000181']) as [
      Record<string, unknown>,
      string,
    ];
    expect(fields.url).toBe(`/x/${MASKED}`);
    expect(fields.statusCode).toBe(400);
    expect((fields.err as Error).message).toBe(`duplicate key for ${MASKED}`);
    expect((fields.err as Error).stack).not.toContain('52998224725');
    expect(message).toBe(`refused ${MASKED}`);
    expect(error.message).toBe('duplicate key for 52998224725'); // the caller's error is not changed
  });

  it('masks nested fields, arrays, and the own fields and cause of an error (PostgreSQL names a key in `detail`)', () => {
    const unique = Object.assign(new Error('duplicate key value violates unique constraint "users_pkey"'), {
      code: '23505',
      detail: 'Key (document)=(52998224725) already exists.',
    });
    const wrapped = new Error('insert failed', { cause: unique });
    const [fields] = maskLogArguments([
      { payload: { owners: [{ email: 'maria@acme.com.br', phone: '+5511987654321' }] }, err: unique, wrapped },
    ]) as [Record<string, Record<string, unknown> & { owners?: unknown; cause?: unknown }>];
    expect((fields.payload as Record<string, unknown>).owners).toEqual([{ email: MASKED, phone: MASKED }]);
    expect(fields.err).toMatchObject({ code: '23505', detail: `Key (document)=(${MASKED}) already exists.` });
    expect(fields.err.message).toBe(unique.message);
    expect((fields.wrapped.cause as Record<string, unknown>).detail).toBe(`Key (document)=(${MASKED}) already exists.`);
    expect(JSON.stringify(fields)).not.toMatch(/52998224725|maria@|5511987654321/);
    expect(unique.detail).toContain('52998224725'); // the caller's error is not changed
  });

  it('hands back the same objects when there is nothing to mask', () => {
    const fields = { route: '/partner/v1/events', statusCode: 200, nested: { ok: [1, 'two'] } };
    const error = Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' });
    const [same, sameError] = maskLogArguments([fields, error, 'request completed']);
    expect(same).toBe(fields);
    expect(sameError).toBe(error);
  });
});
