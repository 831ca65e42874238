import { getMetadataStorage, IsInt, IsString } from 'class-validator';
import { validateContract } from './validate-contract';
import { installValidationMetadataCache } from './validation-metadata-cache';

class Base {
  @IsString() name!: string;
}

class Child extends Base {
  @IsInt() count!: number;
}

describe('the validation metadata cache', () => {
  it('answers the same rules as class-validator, inherited ones included, and serves them again from the cache', () => {
    installValidationMetadataCache(); // a second install is a no-op
    expect(validateContract(Child, { name: 'a', count: 1 }).ok).toBe(true);
    expect(validateContract(Child, { name: 1, count: 1 })).toMatchObject({ ok: false, error: { field: 'name' } });
    expect(validateContract(Child, { name: 'a', count: 'x' })).toMatchObject({ ok: false, error: { field: 'count' } });
    const storage = getMetadataStorage();
    const first = storage.getTargetValidationMetadatas(Child, '', false, false);
    expect(first.map((m) => m.propertyName).sort()).toEqual(['count', 'name']);
    expect(storage.getTargetValidationMetadatas(Child, '', false, false)).toBe(first);
  });

  it('forgets what it kept when a rule is added (a class decorated after the first validation)', () => {
    expect(validateContract(Child, { name: 'a', count: 1, extra: true })).toMatchObject({ ok: false, error: { field: 'extra' } });
    // Decorating a property of an already validated class later: the new rule counts at once.
    IsString()(Child.prototype, 'extra');
    expect(validateContract(Child, { name: 'a', count: 1, extra: 'yes' }).ok).toBe(true);
    expect(validateContract(Child, { name: 'a', count: 1, extra: true })).toMatchObject({ ok: false, error: { field: 'extra' } });
  });
});
