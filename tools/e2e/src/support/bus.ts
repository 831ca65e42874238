import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { BUS_SASL_MECHANISM } from '@partner/contracts';
import { requireEnv } from '@partner/testing';

/** The running stack's broker as `principal` (an app, or `admin`), with its password from the stack's credentials (BUS_PASSWORD_DIR). */
export function busAs(principal: string, password = readFileSync(join(requireEnv('BUS_PASSWORD_DIR'), principal), 'utf8').trim()): Kafka {
  return new Kafka({
    clientId: `e2e-as-${principal}`,
    brokers: requireEnv('KAFKA_BROKERS').split(','),
    sasl: { mechanism: BUS_SASL_MECHANISM, username: principal, password },
    logLevel: logLevel.NOTHING,
  });
}
