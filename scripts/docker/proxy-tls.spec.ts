import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:https';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { currentCertificate, ensureSelfSignedCertificate } from './proxy-tls';

describe('the self-signed certificate compose:up gives the proxy when none is named', () => {
  const dir = mkdtempSync(join(tmpdir(), 'proxy-tls-'));
  const cert = join(dir, 'tls.pem');
  const key = join(dir, 'tls.key');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is made once for localhost and 127.0.0.1, its key mode 600, and kept while current', async () => {
    expect(currentCertificate(cert, key)).toBe(false);
    expect(await ensureSelfSignedCertificate(cert, key, ['api.example'])).toBe(true);
    const x509 = new X509Certificate(readFileSync(cert));
    expect(x509.subjectAltName).toBe('DNS:localhost, IP Address:127.0.0.1, DNS:api.example');
    expect(statSync(key).mode & 0o777).toBe(0o600);
    expect(await ensureSelfSignedCertificate(cert, key)).toBe(false);
  });

  it('serves TLS that a client given the certificate trusts, and one not given it refuses', async () => {
    await ensureSelfSignedCertificate(cert, key);
    const server = createServer({ cert: readFileSync(cert), key: readFileSync(key) }, (_req, res) => res.end('ok'));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    try {
      const trusted = await request(url, { dispatcher: new Agent({ connect: { ca: readFileSync(cert) } }) });
      expect(await trusted.body.text()).toBe('ok');
      await expect(request(url, { dispatcher: new Agent() })).rejects.toThrow(/self-signed|certificate/i);
    } finally {
      server.close();
    }
  });
});
