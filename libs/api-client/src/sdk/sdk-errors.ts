/** Every error the SDK throws (except the caller's own AbortSignal reason, which is rethrown as it is). */
export class PartnerSdkError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The API answered with an error status: its code, HTTP status, request id, Retry-After and body. */
export class PartnerApiError extends PartnerSdkError {
  /** The family's machine code: `error` (withdrawals, customers, events, Pix inflows) or `status` (Pix keys), e.g. `insufficient_funds`. */
  readonly code: string | undefined;
  /** The HTTP status, e.g. 422. */
  readonly status: number;
  /** The answer's `X-Request-Id` (else the body's `request_id`): quote it to support. */
  readonly requestId: string | undefined;
  /** The answer's `Retry-After`, in milliseconds (429 and 503 carry it). */
  readonly retryAfterMs: number | undefined;
  /** The input the API named as wrong, when it named one. */
  readonly field: string | undefined;
  /** The parsed JSON body (the text when it was not JSON). */
  readonly body: unknown;

  constructor(init: {
    status: number;
    body: unknown;
    requestId: string | undefined;
    retryAfterMs: number | undefined;
    method: string;
    path: string;
  }) {
    const fields = isRecord(init.body) ? init.body : {};
    const code = stringOr(fields.error) ?? stringOr(fields.status);
    super(
      `${init.method} ${init.path}: ${init.status}${code ? ` ${code}` : ''}${stringOr(fields.message) ? `: ${stringOr(fields.message)}` : ''}`,
    );
    this.code = code;
    this.status = init.status;
    this.requestId = init.requestId ?? stringOr(fields.request_id);
    this.retryAfterMs = init.retryAfterMs;
    this.field = stringOr(fields.field);
    this.body = init.body;
  }
}

/** No answer: the connection failed or was cut (the cause says how). The outcome of a write is unknown. */
export class PartnerNetworkError extends PartnerSdkError {}

/** No answer within the call's timeout. The outcome of a write is unknown. */
export class PartnerTimeoutError extends PartnerSdkError {
  constructor(
    message: string,
    readonly timeoutMs: number,
  ) {
    super(message);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function stringOr(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
