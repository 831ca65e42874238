import { ExecutionContext } from '@nestjs/common';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';

/**
 * A reply that records what guards and filters write on it: status, headers, body (Fastify's calls they
 * make, chainable as Fastify's are).
 */
export function recordingReply() {
  const sent = { status: 0, headers: {} as Record<string, string>, body: undefined as unknown };
  const reply = {
    status: (code: number) => ((sent.status = code), reply),
    header: (name: string, value: string) => ((sent.headers[name] = value), reply),
    send: (body: unknown) => ((sent.body = body), reply),
  };
  return { reply, sent };
}

/**
 * The context of an HTTP call over this request and reply, as Nest builds it for guards (and, as an
 * ArgumentsHost, for exception filters): `switchToHttp()` hands them back.
 */
export const httpContext = (request: object, reply: object = recordingReply().reply): ExecutionContext =>
  new ExecutionContextHost([request, reply]);
