import 'reflect-metadata';
import { ClassConstructor, plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';
import { ErrorDetail, INVALID_REQUEST } from './error-detail';
import { describeTextFault, findMalformedText } from './well-formed-text';

export type ValidationResult<T> = { ok: true; value: T } | { ok: false; error: ErrorDetail };

export interface ContractValidationOptions {
  /**
   * `refuse` (the default; HTTP bodies and requests): an unknown property is an error, so a partner who
   * misspells a field hears about it. `ignore` (events at the consumer boundary): an unknown property is
   * stripped, so an event from a newer producer that added a field is still processed (ADR 0015).
   */
  unknownFields?: 'refuse' | 'ignore';
}

/**
 * Validates an untrusted plain object (an HTTP body, a Kafka payload) against a contract class.
 * Unknown properties are refused, not stripped, unless `unknownFields: 'ignore'`.
 * The first failing property in declaration order decides the answer, so a request with several
 * problems always gets the same, documented error.
 */
export function validateContract<T extends object>(cls: ClassConstructor<T>, plain: unknown, { unknownFields = 'refuse' }: ContractValidationOptions = {}): ValidationResult<T> {
  if (plain === null || typeof plain !== 'object' || Array.isArray(plain)) {
    return { ok: false, error: { code: INVALID_REQUEST, message: 'request body must be a JSON object' } };
  }
  // Before any validator: some throw on such text (isEmail on a lone surrogate), and PostgreSQL refuses
  // NUL. The gateway refuses it at the HTTP boundary already; this guards every Kafka consumer too.
  const fault = findMalformedText(plain);
  if (fault) return { ok: false, error: { code: INVALID_REQUEST, ...(fault.field ? { field: fault.field } : {}), message: describeTextFault(fault) } };
  // No implicit conversion: "100" is not an amount, and a boolean is not a string.
  const instance = plainToInstance(cls, plain, { enableImplicitConversion: false, exposeDefaultValues: true });
  const errors = validateSync(instance, { whitelist: true, forbidNonWhitelisted: unknownFields === 'refuse', forbidUnknownValues: true });
  if (errors.length === 0) return { ok: true, value: instance };
  return { ok: false, error: firstError(errors) };
}

function firstError(errors: ValidationError[], parent = ''): ErrorDetail {
  const [error] = errors;
  const field = parent ? `${parent}.${error.property}` : error.property;
  if (error.children && error.children.length > 0 && !error.constraints) {
    return firstError(error.children, field);
  }
  const constraints = error.constraints ?? {};
  const [name] = Object.keys(constraints);
  const code = error.contexts?.[name]?.code ?? INVALID_REQUEST;
  if (name === 'whitelistValidation') {
    return { code: INVALID_REQUEST, field, message: `unknown field ${field}` };
  }
  // class-validator messages start with the bare property name; give the full path instead.
  const message = (constraints[name] ?? `${field} is invalid`).replace(new RegExp(`^${error.property}\\b`), field);
  return { code, field, message };
}
