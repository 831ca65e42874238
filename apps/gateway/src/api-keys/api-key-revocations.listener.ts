import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Topics } from '@partner/contracts';
import { BroadcastSubscription, kafkaConnection, MessageBus } from '@partner/kafka';
import { ApiKeyCache } from '../auth/api-key-cache';
import { GatewayConfig } from '../config/gateway.config';
import { OperatorKeyCache } from '../operators/operator-key-cache';

/**
 * Every gateway instance hears every API key revocation (a consumer group of its own, from the topic's
 * end: after a restart the database is the truth, and the key cache starts empty) and forgets the key at
 * once, so a revoked key answers 401 on every instance within about a second, not after API_KEY_CACHE_MS.
 * Operator keys revoked with the CLI come on the same topic (`key_type: operator`) and leave OperatorKeyCache.
 * A partner disabled or re-enabled by an operator comes the same way (gateway.event.partner-status-changed.v1,
 * a second group of this process): its keys leave the cache, and their next request reads the partner's status.
 */
@Injectable()
export class ApiKeyRevocationsListener implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly subscription: BroadcastSubscription<typeof Topics.GatewayApiKeyRevoked>;
  private readonly partnerStatuses: BroadcastSubscription<typeof Topics.GatewayPartnerStatusChanged>;

  constructor(config: GatewayConfig, keyCache: ApiKeyCache, operatorKeys: OperatorKeyCache, bus: MessageBus) {
    this.subscription = new BroadcastSubscription({
      connection: kafkaConnection(config, `gateway-revocations-${process.pid}`),
      topic: Topics.GatewayApiKeyRevoked,
      group: 'gateway.api-key-revocations',
      handle: (event) => (event.key_type === 'operator' ? operatorKeys.forget(event.key_id) : keyCache.forget(event.key_id)),
      // Its membership counts in the gateway's /readyz beside the reply consumer's (ADR 0015).
      groups: bus.groups,
      maxOutOfGroupMs: config.KAFKA_MAX_OUT_OF_GROUP_MS,
    });
    this.partnerStatuses = new BroadcastSubscription({
      connection: kafkaConnection(config, `gateway-partner-statuses-${process.pid}`),
      topic: Topics.GatewayPartnerStatusChanged,
      group: 'gateway.partner-statuses',
      handle: (event) => keyCache.forgetPartner(event.partner_id),
      groups: bus.groups,
      maxOutOfGroupMs: config.KAFKA_MAX_OUT_OF_GROUP_MS,
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    await Promise.all([this.subscription.start(), this.partnerStatuses.start()]);
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.subscription.stop(), this.partnerStatuses.stop()]);
  }
}
