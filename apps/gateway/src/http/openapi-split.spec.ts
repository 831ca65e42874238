import type { OpenAPIObject } from '@nestjs/swagger';
import { documentPart, isOperatorApiPath, isProviderApiPath, withIntegerMoney, withRateLimitHeaders } from './openapi-split';

// Unit: the cuts and checks the three served documents are made with, on a small document.
const document = (): OpenAPIObject => ({
  openapi: '3.0.0',
  info: { title: 'whole', version: 'v1' },
  tags: [{ name: 'partner' }, { name: 'operator' }, { name: 'provider' }],
  paths: {
    '/partner/v1/x': {
      post: {
        tags: ['partner'],
        security: [{ partner: [] }],
        responses: {
          '201': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/X' } } } },
          '401': { description: 'no key' },
        },
      },
    },
    '/admin/v1/y': {
      get: {
        tags: ['operator'],
        security: [{ admin: [] }],
        responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Y' } } } } },
      },
    },
    '/provider/v1/z': {
      post: {
        tags: ['provider'],
        security: [{ 'pix-provider': [] }],
        responses: {
          '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Z' } } } },
          '401': { description: 'bad signature' },
        },
      },
    },
    '/healthz': { get: { responses: { '200': { description: 'up' } } } },
  },
  components: {
    schemas: {
      X: { type: 'object', properties: { amount: { $ref: '#/components/schemas/Money' } } },
      Money: { type: 'object', properties: { usdt_micros: { type: 'integer' }, ownership_bps: { type: 'integer' } } },
      Y: { type: 'object', properties: { name: { type: 'string' } } },
      Z: { type: 'object', properties: { status: { type: 'string' } } },
    },
    securitySchemes: {
      partner: { type: 'apiKey', name: 'X-API-Key', in: 'header' },
      admin: { type: 'apiKey', name: 'X-Admin-Key', in: 'header' },
      'pix-provider': { type: 'apiKey', name: 'X-Pix-Signature', in: 'header' },
    },
  },
});

describe('the OpenAPI documents, cut from one', () => {
  it('keeps only the paths of the part, and the schemas, tags and security schemes they reach', () => {
    const part = documentPart(document(), {
      info: { title: 'partner', version: 'v1' },
      servers: [{ url: '/' }],
      paths: (p) => !isOperatorApiPath(p) && !isProviderApiPath(p),
    });
    expect(Object.keys(part.paths)).toEqual(['/partner/v1/x', '/healthz']);
    expect(Object.keys(part.components?.schemas ?? {}).sort()).toEqual(['Money', 'X']);
    expect(part.tags).toEqual([{ name: 'partner' }]);
    expect(Object.keys(part.components?.securitySchemes ?? {})).toEqual(['partner']);
    expect([part.info.title, part.servers]).toEqual(['partner', [{ url: '/' }]]);
  });

  it("cuts the Pix provider's part: its path, schemas, tag and signature scheme only", () => {
    const part = documentPart(document(), {
      info: { title: 'provider', version: 'v1' },
      servers: [{ url: '/' }],
      paths: isProviderApiPath,
    });
    expect(Object.keys(part.paths)).toEqual(['/provider/v1/z']);
    expect(Object.keys(part.components?.schemas ?? {})).toEqual(['Z']);
    expect([part.tags, Object.keys(part.components?.securitySchemes ?? {})]).toEqual([[{ name: 'provider' }], ['pix-provider']]);
  });

  it('adds the rate-limit headers to every answer of a keyed operation but its 401, and nowhere else', () => {
    const withHeaders = withRateLimitHeaders(document());
    const responses = (path: string, method: string) =>
      (withHeaders.paths[path] as Record<string, { responses: Record<string, { headers?: object }> }>)[method].responses;
    expect(Object.keys(responses('/partner/v1/x', 'post')['201'].headers ?? {})).toEqual(['RateLimit', 'RateLimit-Policy']);
    expect(responses('/partner/v1/x', 'post')['401'].headers).toBeUndefined();
    expect(Object.keys(responses('/admin/v1/y', 'get')['200'].headers ?? {})).toEqual(['RateLimit', 'RateLimit-Policy']);
    expect(responses('/healthz', 'get')['200'].headers).toBeUndefined();
    // The provider's signature is no key the rate limit counts by.
    expect(responses('/provider/v1/z', 'post')['200'].headers).toBeUndefined();
    expect(Object.keys(withHeaders.components?.headers ?? {})).toEqual(['RateLimit', 'RateLimit-Policy']);
  });

  it('types micros int64, and refuses to generate a document whose money is not an integer', () => {
    const typed = withIntegerMoney(document());
    expect(typed.components?.schemas?.Money).toEqual({
      type: 'object',
      properties: { usdt_micros: { type: 'integer', format: 'int64' }, ownership_bps: { type: 'integer' } },
    });
    const wrong = document();
    (wrong.components?.schemas?.Money as { properties: Record<string, object> }).properties.amount_cents = { type: 'number' };
    expect(() => withIntegerMoney(wrong)).toThrow('#/components/schemas/Money/properties/amount_cents (number)');
  });
});
