import 'reflect-metadata';
import { ClassConstructor, plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';
import { ErrorDetail, INVALID_REQUEST, InvalidRequest } from './error-detail';
import { installValidationMetadataCache } from './validation-metadata-cache';
import { describeTextFault, findMalformedText } from './well-formed-text';

installValidationMetadataCache();

/** `C`: the codes a failure may carry. */
export type ValidationResult<T, C extends string = string> = { ok: true; value: T } | { ok: false; error: ErrorDetail<C> };

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
 * problems always gets the same, documented error. The code is the one the failing constraint names
 * (`withCode`), untyped: for callers that only read the message (event consumers). Callers that answer
 * the code use validateCodedContract.
 */
export function validateContract<T extends object>(
  cls: ClassConstructor<T>,
  plain: unknown,
  options: ContractValidationOptions = {},
): ValidationResult<T> {
  return validate(cls, plain, (named) => (typeof named === 'string' ? named : undefined), options);
}

/**
 * validateContract whose failures carry a code of `codes` (a family's, a topic's: the contracts library
 * owns the lists) or `invalid_request`, so the caller's code type is what the lists say, with no cast.
 * The contract classes name codes only through their family's helper, so a constraint's code is always in
 * its family's list; one outside `codes` (a class validated against the wrong list, a bug of ours) is
 * answered `invalid_request`, the code of malformed input that has no code of its own, never a 500: the
 * input is invalid either way.
 */
export function validateCodedContract<T extends object, C extends string>(
  cls: ClassConstructor<T>,
  plain: unknown,
  codes: readonly C[],
  options: ContractValidationOptions = {},
): ValidationResult<T, C | InvalidRequest> {
  return validate(cls, plain, (named) => codes.find((code) => code === named), options);
}

/** `codeOf`: the code a failing constraint's context names, as the caller knows it (undefined: none it knows). */
function validate<T extends object, C extends string>(
  cls: ClassConstructor<T>,
  plain: unknown,
  codeOf: (named: unknown) => C | undefined,
  { unknownFields = 'refuse' }: ContractValidationOptions,
): ValidationResult<T, C | InvalidRequest> {
  if (plain === null || typeof plain !== 'object' || Array.isArray(plain)) {
    return { ok: false, error: { code: INVALID_REQUEST, message: 'request body must be a JSON object' } };
  }
  // Before any validator: some throw on such text (isEmail on a lone surrogate), and PostgreSQL refuses
  // NUL. The gateway refuses it at the HTTP boundary already; this guards every Kafka consumer too.
  const fault = findMalformedText(plain);
  if (fault)
    return {
      ok: false,
      error: { code: INVALID_REQUEST, ...(fault.field ? { field: fault.field } : {}), message: describeTextFault(fault) },
    };
  // No implicit conversion: "100" is not an amount, and a boolean is not a string.
  const instance = plainToInstance(cls, plain, { enableImplicitConversion: false, exposeDefaultValues: true });
  const errors = validateSync(instance, { whitelist: true, forbidNonWhitelisted: unknownFields === 'refuse', forbidUnknownValues: true });
  if (errors.length === 0) return { ok: true, value: instance };
  return { ok: false, error: firstError(errors, codeOf) };
}

function firstError<C extends string>(
  errors: ValidationError[],
  codeOf: (named: unknown) => C | undefined,
  parent = '',
): ErrorDetail<C | InvalidRequest> {
  const [error] = errors;
  const field = parent ? `${parent}.${error.property}` : error.property;
  if (error.children && error.children.length > 0 && !error.constraints) {
    return firstError(error.children, codeOf, field);
  }
  const constraints = error.constraints ?? {};
  const [name] = Object.keys(constraints);
  if (name === 'whitelistValidation') {
    return { code: INVALID_REQUEST, field, message: `unknown field ${field}` };
  }
  // class-validator types a constraint's context as any: the code it names is read as unknown and
  // recognised by codeOf, never trusted as it is.
  const named: unknown = error.contexts?.[name]?.code;
  const code = codeOf(named) ?? INVALID_REQUEST;
  // class-validator messages start with the bare property name; give the full path instead.
  const message = (constraints[name] ?? `${field} is invalid`).replace(new RegExp(`^${error.property}\\b`), field);
  return { code, field, message };
}
