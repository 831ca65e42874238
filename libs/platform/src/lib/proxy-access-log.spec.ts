import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// deploy/nginx/gateway.conf: the proxy's access log holds no document, phone or e-mail (docs/operations/observability.md:
// "Personal data"). nginx is not installed here; the checks read the file, and its path map's expression
// (PCRE) is run in JavaScript, whose syntax it keeps to.
const config = readFileSync(join(__dirname, '..', '..', '..', '..', 'deploy', 'nginx', 'gateway.conf'), 'utf8');
const format = /^log_format (\S+) ((?:'[^']*'\s*)+);/m.exec(config);
const pathMap = /map \$uri \$path_logged \{\s*"~([^"]+)" \$kept;/.exec(config);

describe('the proxy access log', () => {
  it('uses its own format, which names no request line, query, referer or raw path', () => {
    expect(format).not.toBeNull();
    expect(config).toMatch(new RegExp(`^\\s*access_log \\S+ ${format?.[1]};`, 'm'));
    const variables = format?.[2].match(/\$\w+/g) ?? [];
    expect(variables).toContain('$path_logged');
    for (const leaky of ['$request', '$request_uri', '$uri', '$document_uri', '$args', '$query_string', '$http_referer', '$request_body'])
      expect(variables).not.toContain(leaky);
    expect(variables.filter((v) => v.startsWith('$arg_'))).toEqual([]);
  });

  it.each([
    ['/partner/v1/users/52998224725/balance', '/partner/v1/users'],
    ['/partner/v1/pix-key/11222333000181', '/partner/v1/pix-key'],
    ['/partner/v1/pix-key/12ABC34501DE35', '/partner/v1/pix-key'],
    ['/admin/v1/partners/0f8c7e2a-5d1b-4c3e-9a7f-6b2d1e0c9f8a/users/52998224725/credits', '/admin/v1/partners'],
    ['/partner/v1/customers/maria@acme.com.br', '/partner/v1/customers'],
    ['/partner/v1/x/+5511987654321', '/partner/v1/x'],
    ['/partner/v1/withdrawals/usdt', '/partner/v1/withdrawals/usdt'],
    ['/529.982.247-25', ''],
  ])('logs %s as %p', (uri, logged) => {
    expect(pathMap).not.toBeNull();
    const kept = new RegExp(pathMap?.[1] ?? '$^').exec(uri)?.groups?.kept;
    expect(kept).toBe(logged);
  });
});
