import 'reflect-metadata';
import { ClassConstructor, plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';

export class ConfigError extends Error {}

/**
 * Reads an app's configuration from the environment once, at start-up, into a typed class, and fails
 * fast with every problem listed: a service that starts with a wrong broker address or a missing
 * database URL should die with a clear sentence, not time out later.
 */
export function loadConfig<T extends object>(cls: ClassConstructor<T>, env: NodeJS.ProcessEnv = process.env): T {
  const config = plainToInstance(cls, { ...env }, { enableImplicitConversion: true, exposeDefaultValues: true });
  const errors = validateSync(config, { whitelist: false, skipMissingProperties: false });
  if (errors.length > 0) {
    const problems = errors.flatMap((e) => Object.values(e.constraints ?? {}).map((m) => `  - ${e.property}: ${m}`));
    throw new ConfigError(`Invalid configuration for ${cls.name}:\n${problems.join('\n')}`);
  }
  return config;
}
