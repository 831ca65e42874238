import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, Matches, Max, Min, ValidateBy, ValidationArguments } from 'class-validator';

/**
 * Property decorators for the kinds of variable every app's configuration has, so a config class states
 * a variable's name, default and range, and not the same three validators again. The messages stay
 * class-validator's own (they name the variable).
 */

/** Several property decorators as one, applied as if written one above the other (the last first). */
const stacked =
  (...decorators: PropertyDecorator[]): PropertyDecorator =>
  (target, key) => {
    for (const decorate of [...decorators].reverse()) decorate(target, key);
  };

/**
 * A whole number from `min` to `max`. The variable's text is converted here, not by class-transformer's
 * implicit conversion: that reads the field's emitted design type, which scripts run by tsx (esbuild, no
 * decorator metadata) do not have, so `KAFKA_PARTITIONS=6` would stay the string "6" there.
 */
export const IntInRange = (min: number, max: number): PropertyDecorator =>
  stacked(
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' && value.trim() !== '' ? Number(value) : value)),
    IsInt(),
    Min(min),
    Max(max),
  );

/** How long a simulated step takes (a chain's confirmation, the DICT's answer...), in ms: none to an hour. */
export const SimulatedDelayMs = (): PropertyDecorator => IntInRange(0, 3_600_000);

/** How often a periodic job looks for work (a simulator's tick, an outbox relay's poll), in ms: 10 ms to a minute. */
export const PollIntervalMs = (): PropertyDecorator => IntInRange(10, 60_000);

/**
 * A boolean read from the variable's raw text, only `true` being true: class-transformer's implicit
 * conversion would make Boolean('false') true. An unset variable keeps the field's default.
 */
export const Flag = (): PropertyDecorator =>
  stacked(
    Transform(({ obj, key, value }: { obj: Record<string, unknown>; key: string; value: unknown }) =>
      obj[key] === undefined ? value : obj[key] === true || obj[key] === 'true',
    ),
    IsBoolean(),
  );

/** A comma-separated list: items trimmed (then given to `item`, e.g. to lower-case them), empty ones dropped. */
export const CommaSeparated = (item: (text: string) => string = (text) => text): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string'
      ? value
          .split(',')
          .map((s) => item(s.trim()))
          .filter(Boolean)
      : value,
  );

/** The ISPB the stacks run as (`npm start`, tests, the test DICT): no institution's. */
export const PLACEHOLDER_ISPB = '99999999';

/**
 * An operator's ISPB (8 digits) that production refuses to be the stacks' placeholder (99999999): with it, every
 * inflow naming the real ISPB would be refused and every key registered under no institution. The placeholder
 * stays allowed where the counterparties are test servers (`LOCAL_COUNTERPARTIES=true`: the Compose overlay of
 * local chains and the test DICT) or in the sandbox (`SANDBOX=true`). `sameAs`: another setting of the same config
 * that, when set, must be the same ISPB (the operator is one institution).
 */
export const OperatorIspb = (name: string, sameAs?: string): PropertyDecorator =>
  stacked(
    Matches(/^\d{8}$/, { message: `${name} must be the operator's ISPB, 8 digits` }),
    ValidateBy({
      name: 'operatorIspb',
      validator: {
        validate: (value: unknown, args?: ValidationArguments) => {
          const config = (args?.object ?? {}) as Record<string, unknown>;
          const trial = config.SANDBOX === true || config.LOCAL_COUNTERPARTIES === true;
          if (config.NODE_ENV === 'production' && value === PLACEHOLDER_ISPB && !trial) return false;
          const other = sameAs ? config[sameAs] : undefined;
          return other === undefined || other === '' || other === value;
        },
        defaultMessage: (args?: ValidationArguments) =>
          args?.value === PLACEHOLDER_ISPB
            ? `${name}=${PLACEHOLDER_ISPB} is the stacks' placeholder, refused with NODE_ENV=production: set the operator's ISPB (LOCAL_COUNTERPARTIES=true only against test servers)`
            : `${name} (${String(args?.value)}) and ${sameAs} (${String((args?.object as Record<string, unknown>)[sameAs ?? ''])}) must be the same ISPB: the operator is one institution`,
      },
    }),
  );
