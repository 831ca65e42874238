import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { ClassConstructor, plainToInstance } from 'class-transformer';
import { getMetadataStorage, validateSync } from 'class-validator';

export class ConfigError extends Error {}

/**
 * The environment with each setting of `names` given as a file (`<NAME>_FILE`, the path of a file holding
 * the value, as Docker and Kubernetes mount secrets) read into `<NAME>`; one trailing newline is dropped, and
 * an empty file leaves the setting unset.
 * Both given, or a file that cannot be read, is a ConfigError naming it.
 */
export function withSettingFiles(names: readonly string[], env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const resolved = { ...env };
  const problems: string[] = [];
  for (const name of names) {
    const file = env[`${name}_FILE`];
    if (!file) continue;
    if (env[name]) {
      problems.push(`  - ${name}: set ${name} or ${name}_FILE, not both`);
      continue;
    }
    try {
      const value = readFileSync(file, 'utf8').replace(/\r?\n$/, '');
      // An empty file is the setting unset: a Compose secret must exist, so an optional one not used is empty.
      if (value === '') delete resolved[name];
      else resolved[name] = value;
    } catch (error) {
      problems.push(`  - ${name}_FILE: ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  return resolved;
}

/**
 * NODE_ENV as the checks read it: in a container of our images (PARTNER_SERVICE_IMAGE, set by the Dockerfile
 * with NODE_ENV=production) an empty or missing NODE_ENV is production, so that running an image with
 * `NODE_ENV=` cannot turn the production checks off. Elsewhere unset counts as development, as in Node.
 */
export function productionInOurImages(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return !env.NODE_ENV && env.PARTNER_SERVICE_IMAGE ? { ...env, NODE_ENV: 'production' } : env;
}

/**
 * A configuration class's settings: its fields with a default, and the validated ones without (an optional
 * `CHAIN_RPC_URL_2_ETH?: string` is no key of an instance: class fields are not defined without a value here).
 */
function settingNames(cls: ClassConstructor<object>): string[] {
  const names = new Set(Object.keys(new cls()));
  for (const rule of getMetadataStorage().getTargetValidationMetadatas(cls, '', true, false)) names.add(rule.propertyName);
  return [...names];
}

/**
 * Reads an app's configuration from the environment once, at start-up, into a typed class, and fails
 * fast with every problem listed: a service that starts with a wrong broker address or a missing
 * database URL should die with a clear sentence, not time out later. Any setting may come from a file
 * instead (`<NAME>_FILE`, withSettingFiles): secrets stay out of the process's environment.
 */
export function loadConfig<T extends object>(cls: ClassConstructor<T>, env: NodeJS.ProcessEnv = process.env): T {
  const settings = withSettingFiles(settingNames(cls), productionInOurImages(env));
  const config = plainToInstance(cls, settings, { enableImplicitConversion: true, exposeDefaultValues: true });
  const errors = validateSync(config, { whitelist: false, skipMissingProperties: false });
  if (errors.length > 0) {
    const problems = errors.flatMap((e) => Object.values(e.constraints ?? {}).map((m) => `  - ${e.property}: ${m}`));
    throw new ConfigError(`Invalid configuration for ${cls.name}:\n${problems.join('\n')}`);
  }
  return config;
}
