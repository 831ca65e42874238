import { validateContract } from '@partner/validation';
import { isDictName } from '../../users/upsert-user/upsert-user.command';
import { CreatePixKeyRequest } from './create-pix-key.command';

const body = (extra: Record<string, unknown> = {}) => ({
  document: '52998224725',
  idempotency_key: '7d9e2a41-0b3c-4f5d-8e6a-1b2c3d4e5f60',
  ...extra,
});

describe('isDictName (DICT: NaturalPerson Name)', () => {
  it.each([
    ['Maria da Silva', true],
    ["Ana D'Ávila-Souza", true],
    ['Ñandú Øster', true],
    ['A'.repeat(120), true],
    ['A'.repeat(121), false],
    ['Maria 2', false],
    ['Maria\tSilva', false],
    ['Maria.', false],
    ['   ', false],
    ['', false],
  ])('%p → %p', (name, ok) => expect(isDictName(name)).toBe(ok));
});

describe('CreatePixKeyRequest (docs/api.md: "Pix keys")', () => {
  it('takes the contract body, and an optional holder name DICT takes', () => {
    expect(validateContract(CreatePixKeyRequest, body())).toMatchObject({ ok: true });
    expect(validateContract(CreatePixKeyRequest, body({ name: "Joana D'Arc Prado-Araújo" }))).toMatchObject({
      ok: true,
      value: { name: "Joana D'Arc Prado-Araújo" },
    });
  });

  it.each([['Maria 2'], ['Maria S.'], ['   '], [''], ['A'.repeat(121)], [42]])(
    'refuses the name %p as invalid_request on field name',
    (name) => {
      expect(validateContract(CreatePixKeyRequest, body({ name }))).toMatchObject({
        ok: false,
        error: { code: 'invalid_request', field: 'name', message: expect.stringContaining('DICT') },
      });
    },
  );

  it('takes key_type cpf (the default when absent) or evp, and refuses any other as invalid_request on field key_type', () => {
    expect(validateContract(CreatePixKeyRequest, body({ key_type: 'evp' }))).toMatchObject({ ok: true, value: { key_type: 'evp' } });
    expect(validateContract(CreatePixKeyRequest, body({ key_type: 'cpf' }))).toMatchObject({ ok: true });
    for (const key_type of ['EVP', 'phone', 1, null])
      expect(validateContract(CreatePixKeyRequest, body({ key_type }))).toMatchObject({
        ok: false,
        error: { code: 'invalid_request', field: 'key_type' },
      });
  });

  it('takes portability for a cpf key only, a boolean', () => {
    expect(validateContract(CreatePixKeyRequest, body({ portability: true }))).toMatchObject({ ok: true, value: { portability: true } });
    expect(validateContract(CreatePixKeyRequest, body({ portability: false, key_type: 'evp' }))).toMatchObject({ ok: true });
    for (const extra of [{ portability: true, key_type: 'evp' }, { portability: 'yes' }, { portability: null }])
      expect(validateContract(CreatePixKeyRequest, body(extra))).toMatchObject({
        ok: false,
        error: { code: 'invalid_request', field: 'portability' },
      });
  });
});
