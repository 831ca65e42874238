/**
 * `npm run kafka:setup`: the bus's deploy step, run as the broker's super user (KAFKA_SASL_USERNAME=admin):
 * creates the project's topics with the cluster's layout (KAFKA_PARTITIONS, KAFKA_REPLICATION_FACTOR,
 * KAFKA_MIN_INSYNC_REPLICAS), sets each app's SCRAM credential from KAFKA_PASSWORD_<APP> (or
 * KAFKA_PASSWORD_<APP>_FILE) and makes the ACLs exactly the ones each app needs (docs/adr/0032-authenticated-bus.md).
 * Idempotent: a rotated password or a changed rule takes effect when it runs again. Without
 * KAFKA_SASL_MECHANISM (a cluster without authentication) it creates the topics only.
 * docker-compose.yml runs it as the `kafka-setup` service; the local stacks run the same before their apps.
 */
import { CommonConfig, ConfigError, loadConfig, withSettingFiles } from '@partner/config';
import { APP_NAMES, busPasswordVariable } from '@partner/contracts';
import { allTopics, BusPasswords, ensureTopics, kafkaConnection, setUpBus, topicLayout } from '@partner/kafka';
import { runMain } from '../lib/main';

/** The apps' passwords from the environment (or their files), checked: every one present, nothing to quote. */
export function busPasswordsFrom(env: NodeJS.ProcessEnv): BusPasswords {
  const settings = withSettingFiles(APP_NAMES.map(busPasswordVariable), env);
  const problems = APP_NAMES.map(busPasswordVariable)
    .filter((name) => !/^[A-Za-z0-9_-]{16,}$/.test(settings[name] ?? ''))
    .map((name) => `  - ${name}: required, 16+ letters, digits, '_' or '-'`);
  if (problems.length > 0) throw new ConfigError(`Invalid configuration for kafka:setup:\n${problems.join('\n')}`);
  return Object.fromEntries(APP_NAMES.map((app) => [app, settings[busPasswordVariable(app)] as string])) as BusPasswords;
}

async function main(): Promise<void> {
  const config = loadConfig(CommonConfig);
  const layout = topicLayout(config);
  const admin = kafkaConnection(config, `kafka-setup-${process.pid}`);
  const shape = `with ${layout.partitions} partitions, replication factor ${layout.replicationFactor}, min.insync.replicas ${layout.minInsyncReplicas}`;
  if (!config.KAFKA_SASL_MECHANISM) {
    const created = await ensureTopics(admin, layout);
    console.log(
      `kafka:setup: ${allTopics().length} topics present (${created.length} created) ${shape}; no authentication: no principals or ACLs`,
    );
    return;
  }
  const done = await setUpBus(admin, layout, busPasswordsFrom(process.env));
  console.log(
    `kafka:setup: ${allTopics().length} topics present (${done.created.length} created) ${shape}; ` +
      `${done.principals} principals, ${done.acls} ACLs`,
  );
}

if (require.main === module) runMain('kafka:setup', main);
