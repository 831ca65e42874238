import { ValidateIf } from 'class-validator';

/** A snapshot field that is always present, null when it has no value: the field's other rules apply unless it is null. */
export const Nullable = (): PropertyDecorator => ValidateIf((_object, value) => value !== null);
