import { assertNoBody } from './no-body';

describe('assertNoBody', () => {
  it.each([[undefined], [null], [{}]])('lets %p pass', (body) => expect(() => assertNoBody(body)).not.toThrow());

  it('refuses a field, naming it', () => {
    expect(() => assertNoBody({ delivered: true })).toThrow(
      expect.objectContaining({
        status: 400,
        detail: { code: 'invalid_request', field: 'delivered', message: 'unknown field delivered: this request takes no body' },
      }),
    );
  });

  it.each([[[]], ['text'], [0], [false]])('refuses the non-object body %p', (body) => {
    expect(() => assertNoBody(body)).toThrow(
      expect.objectContaining({ status: 400, detail: expect.objectContaining({ code: 'invalid_request' }) }),
    );
  });
});
