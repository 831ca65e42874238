import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DOMParser } from '@xmldom/xmldom';
import { DICT_DOCUMENT_DIR, DictDocument } from './dict-document';
import { cidOf } from './dict-test-server';

const document = new DictDocument();
const root = (xml: string) => {
  const element = new DOMParser().parseFromString(xml, 'application/xml').documentElement;
  if (!element) throw new Error('no root');
  return element;
};
const example = (name: string) =>
  readFileSync(join(DICT_DOCUMENT_DIR, 'examples', name.includes('Claim') ? 'claims' : 'entries', name), 'utf8');

describe('DictDocument: the vendored DICT API document, read as published', () => {
  it('finds every operation of the document, with its request and response schemas where the $refs lead', () => {
    expect(document.operations).toHaveLength(32);
    expect(document.operation('createEntry')).toMatchObject({
      requestSchema: { file: 'schemas.yaml', pointer: '/CreateEntryRequest' },
      responseSchemas: {
        '201': { file: 'schemas.yaml', pointer: '/CreateEntryResponse' },
        '400': { file: 'schemas.yaml', pointer: '/Problem' },
      },
    });
    expect(document.match('post', '/entries/52998224725/delete')).toMatchObject({
      operation: { operationId: 'deleteEntry' },
      params: { Key: '52998224725' },
    });
    expect(document.match('get', '/entries/52998224725')?.operation.operationId).toBe('getEntry');
    expect(document.match('delete', '/entries/52998224725')).toBeUndefined();
  });

  it.each([
    ['createEntry', 'request', 'CreateEntryRequest.xml'],
    ['createEntry', '201', 'CreateEntryResponse.xml'],
    ['deleteEntry', 'request', 'DeleteEntryRequest.xml'],
    ['deleteEntry', '200', 'DeleteEntryResponse.xml'],
    ['getEntry', '200', 'GetEntryResponse.xml'],
    // Its claims: ListClaimsResponse's example wraps its claims (<Claims><Claim>), which the schema's XML rules alone would not read.
    ['createClaim', 'request', 'CreateClaimRequest.xml'],
    ['listClaims', '200', 'ListClaimsResponse.xml'],
    ['acknowledgeClaim', 'request', 'AcknowledgeClaimRequest.xml'],
    ['confirmClaim', 'request', 'ConfirmClaimRequest.xml'],
    ['cancelClaim', 'request', 'CancelClaimRequest.xml'],
    ['completeClaim', 'request', 'CompleteClaimRequest.xml'],
    ['completeClaim', '200', 'CompleteClaimResponse.xml'],
  ])("validates the document's own example of %s %s (%s)", (operationId, which, file) => {
    const op = document.operation(operationId);
    const location = which === 'request' ? op.requestSchema : op.responseSchemas[which];
    if (!location) throw new Error('no schema');
    expect(document.validateXml(location, root(example(file)))).toMatchObject({ ok: true });
  });

  it('refuses a body whose root, a value or a required element is wrong, naming the property', () => {
    const location = document.operation('createEntry').requestSchema;
    if (!location) throw new Error('no schema');
    const body = example('CreateEntryRequest.xml');
    const violations = (xml: string) => {
      const result = document.validateXml(location, root(xml));
      return result.ok ? [] : result.violations.map((v) => v.property);
    };
    expect(violations(body.replace(/CreateEntryRequest>/g, 'CreateEntry>'))).toEqual(['']);
    expect(violations(body.replace('<AccountType>CACC</AccountType>', '<AccountType>CC</AccountType>'))).toContain(
      'Entry.Account.AccountType',
    );
    expect(violations(body.replace(/<RequestId>.*<\/RequestId>/, ''))).toContain('RequestId');
    expect(violations(body.replace('<Reason>USER_REQUESTED</Reason>', '<Reason>USER_REQUESTED</Reason><Reason>FRAUD</Reason>'))).toEqual([
      'CreateEntryRequest.Reason',
    ]);
    expect(violations(body.replace('<Branch>0001</Branch>', '<Branch><X>1</X></Branch>'))).toEqual([
      'CreateEntryRequest.Entry.Account.Branch',
    ]);
  });

  it('is the vendored copy, every file of it read from vendor/bacen-pix-dict-api', () => {
    expect(DICT_DOCUMENT_DIR.endsWith(join('vendor', 'bacen-pix-dict-api', 'openapi'))).toBe(true);
    expect(readdirSync(DICT_DOCUMENT_DIR).sort()).toEqual(['examples', 'openapi.yaml', 'responses.yaml', 'schemas', 'schemas.yaml']);
  });
});

describe('cidOf', () => {
  it('computes the document\'s example CID ("Cálculo de CID")', () => {
    expect(
      cidOf({
        keyType: 'PHONE',
        key: '+5511987654321',
        taxIdNumber: '11122233300',
        name: 'João Silva',
        tradeName: '',
        participant: '12345678',
        branch: '00001',
        accountNumber: '0007654321',
        accountType: 'CACC',
        requestId: '01020304-0506-0708-090a-0b0c0d0e0f10',
      }),
    ).toBe('28c06eb41c4dc9c3ae114831efcac7446c8747777fca8b145ecd31ff8480ae88');
  });
});
