import { isOperatorPath, isPublicPath } from './admin-port';

describe('which port answers which path', () => {
  it.each([
    '/partner/v1/events',
    '/partner/v1/withdrawals/usdt',
    '/sandbox/v1/users',
    '/provider/v2/pix/inflows',
    '/provider/docs/openapi.json',
    '/docs',
    '/docs/openapi.json',
    '/healthz',
  ])('%s: the public port only (but /healthz)', (path) => {
    expect(isPublicPath(path)).toBe(true);
    expect(isOperatorPath(path)).toBe(path === '/healthz');
  });

  it.each(['/admin/v1/partners', '/admin/v1/audit-log', '/admin', '/admin/docs/openapi.json', '/readyz', '/metrics'])(
    '%s: the operator port only',
    (path) => {
      expect(isOperatorPath(path)).toBe(true);
      expect(isPublicPath(path)).toBe(false);
    },
  );

  it.each([
    '/internal/v1/queries/events.query.list.v1',
    '/internal',
    '/',
    '/partnerx',
    '/adminx/v1',
    '/docsx',
    '/readyz/',
    '/%61dmin/v1/partners',
    '//admin/v1/partners',
    '/Admin/v1/partners',
  ])('%s: neither (a route added later is public only once listed)', (path) => {
    expect(isPublicPath(path)).toBe(false);
    expect(isOperatorPath(path)).toBe(false);
  });
});
