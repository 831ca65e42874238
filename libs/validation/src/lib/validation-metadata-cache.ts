import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

type Storage = ReturnType<typeof getMetadataStorage> & {
  getTargetValidationMetadatas(
    target: object,
    schema: string | undefined,
    always: boolean,
    strictGroups: boolean,
    groups?: string[],
  ): ValidationMetadata[];
  groupByPropertyName(metadata: ValidationMetadata[]): Record<string, ValidationMetadata[]>;
  addValidationMetadata(metadata: ValidationMetadata): void;
  addConstraintMetadata(metadata: unknown): void;
};

const installed = Symbol.for('partner.validation.metadataCache');

/**
 * class-validator looks a class's rules up again on every validation: it filters the rules of the class
 * and walks every decorated class of the process for inherited ones (`instanceof` on each), then groups
 * them by property. The rules only change while decorators run (module loading), yet the lookup ran for
 * every HTTP body, every Kafka request and every event (nested objects included): a seventh of the
 * events service's validation time in a profile. This keeps each answer until a rule is added, the
 * same arrays class-validator would have built (it never mutates them), so what is validated, and how,
 * is unchanged. Installed once per process, on the storage every copy of class-validator shares.
 */
export function installValidationMetadataCache(): void {
  const storage = getMetadataStorage() as Storage & { [installed]?: true };
  if (storage[installed]) return;
  storage[installed] = true;
  const lookup = storage.getTargetValidationMetadatas.bind(storage);
  const group = storage.groupByPropertyName.bind(storage);
  const addValidation = storage.addValidationMetadata.bind(storage);
  const addConstraint = storage.addConstraintMetadata.bind(storage);
  let byTarget = new Map<unknown, Map<string, ValidationMetadata[]>>();
  let grouped = new WeakMap<ValidationMetadata[], Record<string, ValidationMetadata[]>>();
  const forget = () => {
    byTarget = new Map();
    grouped = new WeakMap();
  };
  storage.addValidationMetadata = (metadata) => {
    forget();
    addValidation(metadata);
  };
  storage.addConstraintMetadata = (metadata) => {
    forget();
    addConstraint(metadata);
  };
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    const key = `${schema ?? ''}\u0000${always}\u0000${strictGroups}\u0000${groups ? JSON.stringify(groups) : ''}`;
    let forTarget = byTarget.get(target);
    if (!forTarget) byTarget.set(target, (forTarget = new Map()));
    let metadatas = forTarget.get(key);
    if (!metadatas) forTarget.set(key, (metadatas = lookup(target, schema, always, strictGroups, groups)));
    return metadatas;
  };
  storage.groupByPropertyName = (metadatas) => {
    let byProperty = grouped.get(metadatas);
    if (!byProperty) grouped.set(metadatas, (byProperty = group(metadatas)));
    return byProperty;
  };
}
