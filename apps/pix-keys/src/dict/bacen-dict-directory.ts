import { Logger, OnModuleDestroy } from '@nestjs/common';
import { Element } from '@xmldom/xmldom';
import { Agent, Dispatcher } from 'undici';
import { callCounterparty, CounterpartyAnswer, describeCallError } from '@partner/runtime';
import { PixKeysConfig } from '../config/pix-keys.config';
import { DictCredentials } from './dict-credentials';
import {
  CreateEntryRequest,
  DeleteReason,
  DictAnswer,
  DictClaim,
  DictClaimFilter,
  DictClaimReason,
  DictClaimRequest,
  DictDirectory,
  DictInfractionReport,
  DictInfractionReportClose,
  DictInfractionReportFilter,
  DictRefund,
  DictRefundClose,
  DictRefundFilter,
  DictRegisteredEntry,
} from './dict-directory';
import { DictMetrics } from './dict-metrics';
import {
  actionXml,
  child,
  childText,
  createClaimXml,
  createEntryXml,
  deleteEntryXml,
  DictXmlError,
  expectRoot,
  readClaim,
  readClaimList,
  readEntry,
  readInfractionReport,
  readInfractionReportList,
  readProblem,
  readRefund,
  readRefundList,
  signXml,
  verifiedDocument,
} from './dict-xml';

/** Answers larger than this are not read (DICT's are a few KB). */
const MAX_ANSWER_BYTES = 256 * 1024;

/** One request to DICT: the body (signed already), extra headers, the status of success and how to read its answer. */
type DictRequest<T> = [
  method: Dispatcher.HttpMethod,
  path: string,
  body: string | undefined,
  headers: Record<string, string>,
  success: number,
  read: (root: Element) => T,
];

/**
 * The production adapter of DictDirectory: DICT's API as the Central Bank publishes it
 * (vendor/bacen-pix-dict-api, `openapi/openapi.yaml`). XML bodies as the document's examples, each request
 * that changes DICT signed with XML-DSig (the operator's signing certificate), mutual TLS with the operator's
 * client certificate on a pool of kept-alive connections (the document asks for reuse: a mutual TLS
 * handshake is costly), every answer's signature checked with DICT's certificate before it is read.
 *
 * Each call ends in one of three outcomes (DictAnswer): `done`, `refused` (DICT's problem, a 4xx), or
 * `unavailable` (no answer within DICT_TIMEOUT_MS, a connection that failed, a 5xx or 429, or an answer
 * that cannot be trusted). Retrying is the queue's: the same request again, later, with the same RequestId.
 * Built by DictModule's factory (its credentials are read and checked first).
 */
export class BacenDictDirectory implements DictDirectory, OnModuleDestroy {
  private readonly logger = new Logger('DICT');
  private readonly agent: Agent;
  private readonly base: string;

  constructor(
    private readonly config: PixKeysConfig,
    private readonly credentials: DictCredentials,
    private readonly metrics?: DictMetrics,
  ) {
    this.base = config.DICT_URL.replace(/\/+$/, '');
    this.agent = new Agent({
      connect: { ca: credentials.ca, cert: credentials.clientCert, key: credentials.clientKey, rejectUnauthorized: true },
      keepAliveTimeout: 30_000,
      connections: Math.max(2, config.DICT_CONCURRENCY),
    });
  }

  async onModuleDestroy(): Promise<void> {
    await this.agent.close();
  }

  createEntry(req: CreateEntryRequest): Promise<DictAnswer<DictRegisteredEntry>> {
    const body = signXml(createEntryXml(req), { key: this.credentials.signingKey, cert: this.credentials.signingCert });
    return this.call('createEntry', 'POST', '/entries/', body, {}, 201, (root) =>
      readEntry(child(expectRoot(root, 'CreateEntryResponse'), 'Entry')),
    );
  }

  deleteEntry(key: string, reason: DeleteReason): Promise<DictAnswer<{ key: string }>> {
    const body = signXml(deleteEntryXml(key, this.config.DICT_ISPB, reason), {
      key: this.credentials.signingKey,
      cert: this.credentials.signingCert,
    });
    return this.call('deleteEntry', 'POST', `/entries/${encodeURIComponent(key)}/delete`, body, {}, 200, (root) => {
      const answered = childText(expectRoot(root, 'DeleteEntryResponse'), 'Key');
      if (answered !== key) throw new DictXmlError(`the answer deletes key ${answered}, not ${key}`);
      return { key };
    });
  }

  getEntryByCid(cid: string): Promise<DictAnswer<DictRegisteredEntry>> {
    const headers = { 'PI-RequestingParticipant': this.config.DICT_ISPB };
    return this.call('getEntryByCid', 'GET', `/cids/entries/${encodeURIComponent(cid)}`, undefined, headers, 200, (root) =>
      readEntry(child(expectRoot(root, 'GetEntryByCidResponse'), 'Entry')),
    );
  }

  listClaims(filter: DictClaimFilter): Promise<DictAnswer<{ claims: DictClaim[]; hasMore: boolean }>> {
    const query = new URLSearchParams({ Participant: this.config.DICT_ISPB, Limit: String(filter.limit) });
    if (filter.isDonor !== undefined) query.set('IsDonor', String(filter.isDonor));
    if (filter.isClaimer !== undefined) query.set('IsClaimer', String(filter.isClaimer));
    for (const status of filter.status ?? []) query.append('Status', status);
    if (filter.modifiedAfter) query.set('ModifiedAfter', filter.modifiedAfter.toISOString());
    return this.call('listClaims', 'GET', `/claims/?${query.toString()}`, undefined, {}, 200, readClaimList);
  }

  acknowledgeClaim(claimId: string): Promise<DictAnswer<DictClaim>> {
    return this.claimAction('acknowledgeClaim', 'AcknowledgeClaim', claimId, 'acknowledge');
  }

  confirmClaim(claimId: string, reason: DictClaimReason): Promise<DictAnswer<DictClaim>> {
    return this.claimAction('confirmClaim', 'ConfirmClaim', claimId, 'confirm', [['Reason', reason]]);
  }

  cancelClaim(claimId: string, reason: DictClaimReason): Promise<DictAnswer<DictClaim>> {
    return this.claimAction('cancelClaim', 'CancelClaim', claimId, 'cancel', [['Reason', reason]]);
  }

  completeClaim(claimId: string, requestId: string): Promise<DictAnswer<DictClaim>> {
    return this.claimAction('completeClaim', 'CompleteClaim', claimId, 'complete', [['RequestId', requestId]]);
  }

  createClaim(claim: DictClaimRequest): Promise<DictAnswer<DictClaim>> {
    const body = signXml(createClaimXml(claim), { key: this.credentials.signingKey, cert: this.credentials.signingCert });
    return this.call('createClaim', 'POST', '/claims/', body, {}, 201, (root) =>
      readClaim(child(expectRoot(root, 'CreateClaimResponse'), 'Claim')),
    );
  }

  listInfractionReports(filter: DictInfractionReportFilter): Promise<DictAnswer<{ reports: DictInfractionReport[]; hasMore: boolean }>> {
    const query = this.listQuery(filter);
    if (filter.isDebited !== undefined) query.set('IsDebited', String(filter.isDebited));
    if (filter.isCredited !== undefined) query.set('IsCredited', String(filter.isCredited));
    return this.call(
      'listInfractionReports',
      'GET',
      `/infraction-reports/?${query.toString()}`,
      undefined,
      {},
      200,
      readInfractionReportList,
    );
  }

  getInfractionReport(id: string): Promise<DictAnswer<DictInfractionReport>> {
    return this.read('getInfractionReport', '/infraction-reports/', id, (root) =>
      readInfractionReport(child(expectRoot(root, 'GetInfractionReportResponse'), 'InfractionReport')),
    );
  }

  acknowledgeInfractionReport(id: string): Promise<DictAnswer<DictInfractionReport>> {
    return this.reportAction('acknowledgeInfractionReport', 'AcknowledgeInfractionReport', id, 'acknowledge', []);
  }

  closeInfractionReport(id: string, close: DictInfractionReportClose): Promise<DictAnswer<DictInfractionReport>> {
    return this.reportAction('closeInfractionReport', 'CloseInfractionReport', id, 'close', [
      ['AnalysisResult', close.result],
      ['AnalysisDetails', close.details],
    ]);
  }

  listRefunds(filter: DictRefundFilter): Promise<DictAnswer<{ refunds: DictRefund[]; hasMore: boolean }>> {
    const query = this.listQuery(filter);
    query.set('ParticipantRole', filter.role);
    return this.call('listRefunds', 'GET', `/refunds/?${query.toString()}`, undefined, {}, 200, readRefundList);
  }

  getRefund(id: string): Promise<DictAnswer<DictRefund>> {
    return this.read('getRefund', '/refunds/', id, (root) => readRefund(child(expectRoot(root, 'GetRefundResponse'), 'Refund')));
  }

  closeRefund(id: string, close: DictRefundClose): Promise<DictAnswer<DictRefund>> {
    const own: Array<[string, string | null]> = [
      ['RefundAnalysisResult', close.result],
      ['RefundAnalysisDetails', close.details],
      ['RefundRejectionReason', close.result === 'REJECTED' ? close.rejectionReason : null],
      ['RefundTransactionId', close.result === 'REJECTED' ? null : close.refundTransactionId],
    ];
    return this.action('closeRefund', 'CloseRefund', '/refunds/', ['RefundId', id], 'close', own, (answer) =>
      readRefund(child(answer, 'Refund')),
    );
  }

  /** A listing's common query: this participant, details included (the partner's case carries them), statuses, ModifiedAfter, Limit. */
  private listQuery(filter: { status?: string[]; modifiedAfter?: Date; limit: number }): URLSearchParams {
    const query = new URLSearchParams({ Participant: this.config.DICT_ISPB, IncludeDetails: 'true', Limit: String(filter.limit) });
    for (const status of filter.status ?? []) query.append('Status', status);
    if (filter.modifiedAfter) query.set('ModifiedAfter', filter.modifiedAfter.toISOString());
    return query;
  }

  /** A GET of one report or refund request, on behalf of this participant; the answer must be about that id. */
  private read<T extends { id: string }>(operation: string, collection: string, id: string, parse: (root: Element) => T) {
    const headers = { 'PI-RequestingParticipant': this.config.DICT_ISPB };
    return this.call(operation, 'GET', `${collection}${encodeURIComponent(id)}`, undefined, headers, 200, (root) => {
      const value = parse(root);
      if (value.id !== id) throw new DictXmlError(`the answer is about ${value.id}, not ${id}`);
      return value;
    });
  }

  private claimAction(operation: string, name: string, claimId: string, path: string, own: Array<[string, string]> = []) {
    return this.action(operation, name, '/claims/', ['ClaimId', claimId], path, own, (answer) => readClaim(child(answer, 'Claim')));
  }

  private reportAction(operation: string, name: string, id: string, path: string, own: Array<[string, string | null]>) {
    return this.action(operation, name, '/infraction-reports/', ['InfractionReportId', id], path, own, (answer) =>
      readInfractionReport(child(answer, 'InfractionReport')),
    );
  }

  /**
   * A signed operation on one claim, report or refund request (`POST <collection><id>/<path>`), with its own fields
   * (a Reason, an AnalysisResult...); the answer (`<name>Response`) carries it as it now is, and must be about that id.
   */
  private action<T extends { id: string }>(
    operation: string,
    name: string,
    collection: string,
    [idName, id]: [string, string],
    path: string,
    own: Array<[string, string | null]>,
    read: (answer: Element) => T,
  ): Promise<DictAnswer<T>> {
    const body = signXml(actionXml(`${name}Request`, [idName, id], this.config.DICT_ISPB, own), {
      key: this.credentials.signingKey,
      cert: this.credentials.signingCert,
    });
    return this.call(operation, 'POST', `${collection}${encodeURIComponent(id)}/${path}`, body, {}, 200, (root) => {
      const value = read(expectRoot(root, `${name}Response`));
      if (value.id !== id) throw new DictXmlError(`the answer is about ${value.id}, not ${id}`);
      return value;
    });
  }

  private async call<T>(operation: string, ...request: DictRequest<T>): Promise<DictAnswer<T>> {
    const started = performance.now();
    const answer = await this.exchange(...request);
    const [, path] = request;
    this.metrics?.requests.inc({ operation, outcome: answer.outcome === 'refused' ? `refused_${answer.problem.type}` : answer.outcome });
    this.metrics?.duration.observe({ operation }, (performance.now() - started) / 1000);
    if (answer.outcome === 'unavailable') this.logger.warn(`${operation} ${path}: DICT unavailable: ${answer.reason}`);
    return answer;
  }

  private async exchange<T>(...[method, path, body, headers, success, read]: DictRequest<T>): Promise<DictAnswer<T>> {
    let answer: CounterpartyAnswer;
    try {
      answer = await callCounterparty(`${this.base}${path}`, {
        method,
        dispatcher: this.agent,
        headers: {
          accept: 'application/xml',
          ...(body === undefined ? {} : { 'content-type': 'application/xml; charset=utf-8' }),
          ...headers,
        },
        body,
        timeoutMs: this.config.DICT_TIMEOUT_MS,
        maxBytes: MAX_ANSWER_BYTES,
      });
    } catch (error) {
      return { outcome: 'unavailable', reason: describeCallError(error) };
    }
    const { status, text } = answer;
    if (status >= 500 || status === 429) {
      return {
        outcome: 'unavailable',
        reason: `HTTP ${status}${problemSummary(text)}`,
        ...(answer.retryAfterMs === undefined ? {} : { retryAfterMs: answer.retryAfterMs }),
      };
    }
    try {
      // Every answer is signed by DICT, problems included; an unsigned or tampered one is not believed.
      const root = verifiedDocument(text, this.credentials.responseCert);
      if (status === success) return { outcome: 'done', value: read(root) };
      if (status >= 400) return { outcome: 'refused', problem: readProblem(root, status) };
      return { outcome: 'unavailable', reason: `unexpected HTTP ${status}` };
    } catch (error) {
      return {
        outcome: 'unavailable',
        reason: `HTTP ${status}, answer not trusted: ${describeCallError(error)}`,
        ...(status >= 400 ? { untrustedRefusal: true } : {}),
      };
    }
  }
}

/** The problem's type in a 5xx answer, for the log (unverified: it changes no decision). */
function problemSummary(text: string): string {
  const type = /<type>[^<]*\/([A-Za-z]+)<\/type>/.exec(text)?.[1];
  return type ? ` ${type}` : '';
}
