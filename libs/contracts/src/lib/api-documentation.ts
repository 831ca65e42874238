import { Type } from '@nestjs/common';
import { PickType as PickValidatedType } from '@nestjs/mapped-types';

/**
 * The OpenAPI documentation of the contract classes, as plain data: the contracts import no OpenAPI
 * library (the services that load them never build a document), and the gateway attaches what is recorded
 * here through Nest's OpenAPI module before it builds its documents (apps/gateway/src/http/contract-documentation.ts).
 * The decorators keep that module's names and options; each is recorded at the moment the module's own
 * would have run, and replayed in that order, so the documents are the same as if they had run.
 */

/** What documents one property: the OpenAPI module's ApiPropertyOptions (its `type`, `enum`, `example`...). */
export type PropertyDocumentation = Record<string, unknown>;

/** What documents a schema: the OpenAPI module's ApiSchemaOptions. */
export interface SchemaDocumentation {
  name?: string;
  description?: string;
}

/** One recorded piece of documentation, in the order the classes were defined. */
export type RecordedDocumentation =
  | { kind: 'property'; target: object; key: string | symbol; options: PropertyDocumentation; required: boolean }
  | { kind: 'extra-models'; target: Type; models: Type[] }
  | { kind: 'schema'; target: Type; options: SchemaDocumentation }
  | { kind: 'pick'; target: Type; source: Type; keys: readonly string[] };

const recorded: RecordedDocumentation[] = [];
const schemaNames = new WeakMap<Type, string>();

/** Everything documented so far (the gateway replays what it has not yet). */
export function recordedDocumentation(): readonly RecordedDocumentation[] {
  return recorded;
}

/** Documents a required property (the OpenAPI module's ApiProperty). */
export function ApiProperty(options: PropertyDocumentation = {}): PropertyDecorator {
  return (target, key) => void recorded.push({ kind: 'property', target, key, options, required: true });
}

/** Documents an optional property (its ApiPropertyOptional). */
export function ApiPropertyOptional(options: PropertyDocumentation = {}): PropertyDecorator {
  return (target, key) => void recorded.push({ kind: 'property', target, key, options, required: false });
}

/** Documents models a class's documentation refers to without a property of their type (its ApiExtraModels). */
export function ApiExtraModels(...models: Type[]): ClassDecorator {
  return (target) => void recorded.push({ kind: 'extra-models', target: target as unknown as Type, models });
}

/** Documents a class's schema (its ApiSchema). */
export function ApiSchema(options: SchemaDocumentation): ClassDecorator {
  return (target) => {
    if (options.name) schemaNames.set(target as unknown as Type, options.name);
    recorded.push({ kind: 'schema', target: target as unknown as Type, options });
  };
}

/** Where a model's schema is in the document (its getSchemaPath): its ApiSchema name, else its class name. */
export function getSchemaPath(model: Type | string): string {
  return `#/components/schemas/${typeof model === 'string' ? model : (schemaNames.get(model) ?? model.name)}`;
}

/**
 * A class of `classRef`'s properties named in `keys`, with their validation and transformation (the OpenAPI
 * module's PickType): the documentation of those properties is copied when the gateway replays it.
 */
export function PickType<T, K extends keyof T>(classRef: Type<T>, keys: readonly K[]): Type<Pick<T, (typeof keys)[number]>> {
  const picked = PickValidatedType(classRef, keys);
  recorded.push({ kind: 'pick', target: picked, source: classRef, keys: keys.map(String) });
  return picked;
}
