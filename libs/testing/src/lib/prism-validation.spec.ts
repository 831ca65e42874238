import { INGEST_PIX_INFLOW_EXAMPLE } from '@partner/contracts';
import { committedDocumentPath } from './response-contract';
import { Exchange, prismOperationsOf, prismViolations } from './prism-validation';

// Unit: Stoplight Prism's validator on exchanges, against the committed documents (YAML).
const exchange = (overrides: Partial<Exchange>): Exchange => ({
  document: 'partner',
  method: 'post',
  path: '/partner/v1/pix-key',
  query: '',
  requestHeaders: { 'content-type': 'application/json', 'x-api-key': 'pk_sandbox_x' },
  requestBody: JSON.stringify({ document: '52998224725', idempotency_key: '7a0d1a2e-8a43-4c1e-9a0b-3f5c2a1d9e10' }),
  status: 202,
  responseHeaders: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'r-1' },
  responseBody: JSON.stringify({ status: 'accepted' }),
  ...overrides,
});

describe("Prism's validation of the e2e exchanges", () => {
  const yamlOf = (document: 'partner' | 'provider') => prismOperationsOf(committedDocumentPath(document).replace(/\.json$/, '.yaml'));
  const operations = yamlOf('partner');

  it('passes an exchange the document describes', async () => {
    expect(prismViolations(await operations, exchange({}))).toEqual([]);
  });

  it('reports an answer the document does not describe', async () => {
    const wrong = prismViolations(await operations, exchange({ responseBody: JSON.stringify({ status: 'succeeded' }) }));
    expect(wrong).toEqual([expect.stringContaining('answer: body.status')]);
  });

  it('reports a request the gateway accepted although the document says it is invalid, not one it refused', async () => {
    const invalid = JSON.stringify({ document: 52998224725, idempotency_key: '7a0d1a2e-8a43-4c1e-9a0b-3f5c2a1d9e10' });
    expect(prismViolations(await operations, exchange({ requestBody: invalid }))).toEqual([
      expect.stringContaining('request accepted, yet invalid'),
    ]);
    const refused = {
      status: 400,
      requestBody: invalid,
      responseBody: JSON.stringify({ status: 'invalid_request', message: 'document must be a string', field: 'document' }),
    };
    expect(prismViolations(await operations, exchange(refused))).toEqual([]);
  });

  it('reports a route the document does not have, unless it was answered 404', async () => {
    expect(prismViolations(await operations, exchange({ path: '/partner/v1/nowhere' }))).toEqual([expect.stringContaining('no operation')]);
    expect(
      prismViolations(
        await operations,
        exchange({ path: '/partner/v1/nowhere', status: 404, responseBody: '{"error":"not_found","message":"no such route"}' }),
      ),
    ).toEqual([]);
  });

  it("validates the Pix provider's exchanges against its own document, which the partner document does not hold", async () => {
    const notification = { ...INGEST_PIX_INFLOW_EXAMPLE, sender_name: 'João Souza' };
    const provider = exchange({
      document: 'provider',
      path: '/provider/v2/pix/inflows',
      requestHeaders: { 'content-type': 'application/json', 'x-pix-signature': `t=1764131400,v1=${'a'.repeat(64)}` },
      requestBody: JSON.stringify(notification),
      status: 201,
      responseBody: JSON.stringify({ end_to_end_id: notification.end_to_end_id, status: 'processing', created: true, matched: true }),
    });
    expect(prismViolations(await yamlOf('provider'), provider)).toEqual([]);
    expect(
      prismViolations(await yamlOf('provider'), {
        ...provider,
        responseBody: JSON.stringify({ end_to_end_id: notification.end_to_end_id, status: 'settled', created: true, matched: true }),
      }),
    ).toEqual([expect.stringContaining('answer: body.status')]);
    expect(prismViolations(await operations, provider)).toEqual([expect.stringContaining('no operation')]);
  });
});
