import {
  ApiClient,
  ApiDocument,
  committedDocumentPath,
  Exchange,
  prismOperationsOf,
  prismViolations,
  requireEnv,
  responseContractOf,
} from '@partner/testing';
import { readFileSync } from 'node:fs';
import { gatewayUrl } from './support/sandbox';

/**
 * The response contract (docs/api.md: "Reference"): every answer the e2e suites received through ApiClient or the
 * typed client was checked against its document (docs/openapi.json, or the operator's or the Pix provider's) as it arrived (libs/testing response-contract.ts)
 * and logged to RESPONSE_CONTRACT_LOG (emptied by global-setup.js before the first suite). This suite,
 * last of the run (tools/e2e/sequencer.js), fails listing every answer the document does not describe:
 * an undocumented status, a body or header that does not match. Then the same exchanges go through a
 * third-party validator, Stoplight Prism's (libs/testing prism-validation.ts), against the YAML documents.
 */
interface Checked {
  method: string;
  path: string;
  status: number;
  violations: string[];
  exchange?: Exchange;
}

const checkedAnswers = (): Checked[] =>
  readFileSync(requireEnv('RESPONSE_CONTRACT_LOG'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));

describe('response contract', () => {
  it('every answer of the e2e run matches the OpenAPI document', async () => {
    // One answer at least, should this suite run alone.
    expect((await new ApiClient(gatewayUrl()).get('/healthz')).status).toBe(200);

    const checked = checkedAnswers();
    const violations = [...new Set(checked.flatMap((c) => c.violations))];

    // Which documented answers the run exercised: for the reader, not asserted (error paths such as 413 have their own specs elsewhere).
    const seen = new Set(
      checked.map(
        (c) =>
          `${responseContractOf(c.exchange?.document ?? 'partner').operationOf(c.method, c.path)?.template ?? '(unknown route)'} ${c.method} ${c.status}`,
      ),
    );
    console.log(
      `response contract: ${checked.length} answers checked against their documents (${seen.size} distinct operation/status pairs), ${violations.length} distinct violations`,
    );

    expect(checked.length).toBeGreaterThan(0);
    expect({ violations: violations.length, first: violations.slice(0, 40) }).toEqual({ violations: 0, first: [] });
  });

  it("every exchange of the e2e run passes Stoplight Prism's validator against the YAML documents, 0 mismatches", async () => {
    const exchanges = checkedAnswers().flatMap((c) => (c.exchange ? [c.exchange] : []));
    const names: ApiDocument[] = ['partner', 'operator', 'provider'];
    const documents = new Map(
      await Promise.all(
        names.map(async (name) => [name, await prismOperationsOf(committedDocumentPath(name).replace(/\.json$/, '.yaml'))] as const),
      ),
    );
    // Each exchange against its own document; one whose document is not loaded is a mismatch, never skipped.
    const verdict = (exchange: Exchange) => {
      const operations = documents.get(exchange.document);
      return operations
        ? prismViolations(operations, exchange)
        : [`${exchange.method} ${exchange.path}: no committed document "${String(exchange.document)}"`];
    };
    const mismatches = [...new Set(exchanges.flatMap(verdict))];
    const refusedOnPurpose = exchanges.filter((e) => e.status >= 400 && e.status < 500).length;
    const perDocument = names.map((name) => `${exchanges.filter((e) => e.document === name).length} ${name}`).join(', ');
    console.log(
      `Prism: ${exchanges.length} exchanges validated (${perDocument}; ${exchanges.length - refusedOnPurpose} accepted ones with their requests; ${refusedOnPurpose} 4xx by their answers), ${mismatches.length} distinct mismatches`,
    );
    expect(exchanges.length).toBeGreaterThan(0);
    expect({ mismatches: mismatches.length, first: mismatches.slice(0, 40) }).toEqual({ mismatches: 0, first: [] });
  });
});
