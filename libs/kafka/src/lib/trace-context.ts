import {
  Attributes,
  Context,
  context,
  propagation,
  ROOT_CONTEXT,
  Span,
  SpanKind,
  SpanStatusCode,
  TextMapGetter,
  trace,
} from '@opentelemetry/api';
import type { KafkaMessage } from './kafka-port';

type MessageHeaders = NonNullable<KafkaMessage['headers']>;

/**
 * Tracing across Kafka (docs/operations/observability.md: "Tracing"): W3C trace context (`traceparent`, `tracestate`) in the
 * headers of every request, reply and event, as OpenTelemetry's messaging conventions and its kafkajs
 * instrumentation write them, so any traced consumer continues the trace.
 *
 * The transport makes the spans itself: a `send <topic>` producer span per message, parented on the
 * context the message was sent for (captured when it was handed over, not when a coalesced send or the
 * outbox relay actually produces it), and a `process <topic>` consumer span around its handler. With no
 * SDK started every call here is the OpenTelemetry API's no-op: no span, no header.
 */
const tracer = trace.getTracer('@partner/kafka');

const bufferHeaders: TextMapGetter<MessageHeaders> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key];
    const one = Array.isArray(value) ? value[0] : value;
    return one === undefined ? undefined : one.toString();
  },
};

const messagingAttributes = (topic: string, operation: 'send' | 'process', key?: string | null): Attributes => ({
  'messaging.system': 'kafka',
  'messaging.destination.name': topic,
  'messaging.operation.type': operation,
  'messaging.operation.name': operation,
  ...(key ? { 'messaging.kafka.message.key': key } : {}),
});

/** The W3C headers of `ctx` (empty when it carries no trace). */
export function traceHeaders(ctx: Context = context.active()): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(ctx, carrier);
  return carrier;
}

/** The `traceparent` of the current context, to store beside an outbox row; null outside a trace. */
export function currentTraceparent(): string | null {
  return traceHeaders().traceparent ?? null;
}

/** A message on its way out: its producer span and the headers that carry it. End the span once sent. */
export interface OutgoingTrace {
  span: Span;
  headers: Record<string, string>;
}

/** Opens the producer span of one message sent on behalf of `parent` (default: the current context). */
export function sendSpan(topic: string, key?: string | null, parent: Context = context.active()): OutgoingTrace {
  const span = tracer.startSpan(`send ${topic}`, { kind: SpanKind.PRODUCER, attributes: messagingAttributes(topic, 'send', key) }, parent);
  return { span, headers: traceHeaders(trace.setSpan(parent, span)) };
}

/** The same for an outbox row, whose context was stored as its `traceparent` when it was written. */
export function sendSpanFromTraceparent(topic: string, key: string, traceparent: string | null): OutgoingTrace | undefined {
  if (!traceparent) return undefined;
  return sendSpan(topic, key, propagation.extract(ROOT_CONTEXT, { traceparent }));
}

/** Ends the spans of messages once their send settled. */
export function endSends(traces: Array<OutgoingTrace | undefined>, error?: unknown): void {
  for (const t of traces) {
    if (!t) continue;
    if (error) failed(t.span, error);
    t.span.end();
  }
}

/** Returns `sending`, ending the messages' spans when it settles (marked failed if it rejects). */
export function tracedSend<R>(traces: Array<OutgoingTrace | undefined>, sending: Promise<R>): Promise<R> {
  return sending.then(
    (result) => {
      endSends(traces);
      return result;
    },
    (error: unknown) => {
      endSends(traces, error);
      throw error;
    },
  );
}

/** Runs `work` inside a `process <topic>` span, the child of the context the message's headers carry. */
export function processSpan<R>(topic: string, headers: MessageHeaders | undefined, key: string | null, work: () => Promise<R>): Promise<R> {
  const parent = headers ? propagation.extract(ROOT_CONTEXT, headers, bufferHeaders) : ROOT_CONTEXT;
  return tracer.startActiveSpan(
    `process ${topic}`,
    { kind: SpanKind.CONSUMER, attributes: messagingAttributes(topic, 'process', key) },
    parent,
    async (span) => {
      try {
        return await work();
      } catch (error) {
        failed(span, error);
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

function failed(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}
