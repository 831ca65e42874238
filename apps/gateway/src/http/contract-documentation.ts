import { ApiExtraModels, ApiProperty, ApiPropertyOptional, ApiSchema, DECORATORS } from '@nestjs/swagger';
import { recordedDocumentation } from '@partner/contracts';

let attached = 0;

/** A class's documented properties, in their order (what Swagger's own PickType reads: ModelPropertiesAccessor). */
function documentedProperties(prototype: object): string[] {
  const keys: unknown[] = Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES_ARRAY, prototype) ?? [];
  return keys.filter((key): key is string => typeof key === 'string' && key.startsWith(':')).map((key) => key.slice(1));
}

/**
 * Attaches the contract classes' documentation (recorded by libs/contracts, which imports no OpenAPI
 * library) through @nestjs/swagger, in the order it was recorded: what the contracts' decorators would
 * have done had they been Swagger's. Runs before every document is built; attaches only what is new.
 */
export function attachContractDocumentation(): void {
  const recorded = recordedDocumentation();
  for (; attached < recorded.length; attached++) {
    const doc = recorded[attached];
    switch (doc.kind) {
      case 'property':
        (doc.required ? ApiProperty : ApiPropertyOptional)(doc.options)(doc.target, doc.key);
        break;
      case 'extra-models':
        ApiExtraModels(...doc.models)(doc.target);
        break;
      case 'schema':
        ApiSchema(doc.options)(doc.target);
        break;
      case 'pick':
        // As Swagger's PickType copies them: the picked properties' documentation, in the source's order.
        for (const key of documentedProperties(doc.source.prototype as object).filter((k) => doc.keys.includes(k))) {
          ApiProperty(Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES, doc.source.prototype as object, key))(
            doc.target.prototype as object,
            key,
          );
        }
        break;
    }
  }
}
