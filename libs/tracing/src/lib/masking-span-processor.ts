import type { AttributeValue } from '@opentelemetry/api';
import type { tracing } from '@opentelemetry/sdk-node';
import { maskText } from './mask-identifiers';

type Span = Parameters<NonNullable<tracing.SpanProcessor['onEnding']>>[0];

const maskValue = (value: AttributeValue | undefined): AttributeValue | undefined => {
  if (typeof value === 'string') return maskText(value);
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'string' ? maskText(v) : v)) as AttributeValue;
  return value;
};

/**
 * Masks every CPF, CNPJ, phone and e-mail, and hides the secrets of URLs (maskText), in a span before any exporter sees it: its
 * name, its string attributes, its events' attributes and its status message. The instrumentations write
 * what they see (the URL of `GET /partner/v1/pix-in?document=...`, a Kafka message's key, an exception's
 * message), so the one place that sees every span is the provider's processor chain. `onEnding` runs
 * while the span can still be written, before every processor's `onEnd` (the exporting ones included).
 */
export class MaskingSpanProcessor implements tracing.SpanProcessor {
  onStart(): void {
    // Nothing to do at the start: the instrumentations write most attributes as the span ends.
  }

  onEnding(span: Span): void {
    const name = maskText(span.name);
    if (name !== span.name) span.updateName(name);
    for (const [key, value] of Object.entries(span.attributes)) {
      const masked = maskValue(value);
      if (masked !== undefined && JSON.stringify(masked) !== JSON.stringify(value)) span.setAttribute(key, masked);
    }
    for (const event of span.events) {
      if (!event.attributes) continue;
      for (const [key, value] of Object.entries(event.attributes)) event.attributes[key] = maskValue(value);
    }
    if (span.status.message) span.setStatus({ ...span.status, message: maskText(span.status.message) });
  }

  onEnd(): void {
    // Masked in onEnding already, before any exporter's onEnd.
  }

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}
