import { Inject, Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { ApiKeyRepository } from '../api-keys/api-key.repository';
import { GatewayConfig } from '../config/gateway.config';
import { sameDigest } from './api-key';
import { Partner } from './partner.repository';

/**
 * Verified API keys remembered for API_KEY_CACHE_MS, so the hot path does not hit the database on every
 * request: one per process (a provider, not the guard, since Nest makes a guard instance per module that
 * uses it), so a revocation forgets a key for every route at once. A revoked key is forgotten at once
 * (`forget`: by the revoking instance, and on every other one by the revocation broadcast); the cache
 * time only bounds how long a missed broadcast could keep it usable.
 */
@Injectable()
export class ApiKeyCache {
  private readonly entries = new Map<string, { partner: Partner; keyId: string; until: number }>();
  /** Lookups in flight by key hash: a burst of requests with a key not cached yet makes one query, not one each. */
  private readonly lookups = new Map<string, Promise<Partner | null>>();
  /** Bumped by every `forget`: a lookup that started before a revocation must not put the key back. */
  private generation = 0;
  /**
   * Hashes the database did not know, for API_KEY_NEGATIVE_CACHE_MS (bounded, least recently used out
   * first): a flood that repeats made-up keys is answered 401 without a lookup each.
   */
  private readonly unknown?: LRUCache<string, true>;

  constructor(
    @Inject(ApiKeyRepository) private readonly keys: Pick<ApiKeyRepository, 'authenticate'>,
    private readonly config: GatewayConfig,
  ) {
    if (config.API_KEY_NEGATIVE_CACHE_MS > 0) this.unknown = new LRUCache({ max: 100_000, ttl: config.API_KEY_NEGATIVE_CACHE_MS });
  }

  /** Whether a lookup of this hash found no active key a moment ago: answer 401 without asking again. */
  knownUnknown(hash: string): boolean {
    return this.unknown?.has(hash) ?? false;
  }

  /**
   * A key was just created with this hash: it must work at once. Its secret did not exist before, so no
   * instance can have looked it up as unknown; forgetting it here keeps that true even if it could.
   */
  created(hash: string): void {
    this.unknown?.delete(hash);
  }

  /** The partner of a key verified recently, without any I/O. */
  cached(hash: string): Partner | undefined {
    const entry = this.entries.get(hash);
    return entry && entry.until > Date.now() ? entry.partner : undefined;
  }

  /**
   * The partner of an active key with this hash, from the database (which also records the key's use), or
   * null. A database that does not answer propagates: the error filter answers 503 for every
   * unreachable-database error (isDatabaseUnavailable), and a 500 for anything else, a bug of ours.
   */
  /** The lookup of this hash already under way, if any: a request with the same key waits for it instead of starting one. */
  lookingUp(hash: string): Promise<Partner | null> | undefined {
    return this.lookups.get(hash);
  }

  lookUp(hash: string): Promise<Partner | null> {
    const pending = this.lookups.get(hash);
    if (pending) return pending;
    const lookup = this.load(hash).finally(() => {
      if (this.lookups.get(hash) === lookup) this.lookups.delete(hash);
    });
    this.lookups.set(hash, lookup);
    return lookup;
  }

  /** Stops trusting a key at once (it was revoked); its next request asks the database. */
  forget(keyId: string): void {
    this.drop((entry) => entry.keyId === keyId);
  }

  /**
   * Stops trusting what is cached of a partner's keys (an operator disabled or re-enabled it): their next
   * request reads the partner's status from the database.
   */
  forgetPartner(partnerId: string): void {
    this.drop((entry) => entry.partner.id === partnerId);
  }

  private drop(matches: (entry: { partner: Partner; keyId: string }) => boolean): void {
    this.generation++;
    // Lookups in flight may have read the key before the change: requests from now on make their own.
    this.lookups.clear();
    for (const [hash, entry] of this.entries) if (matches(entry)) this.entries.delete(hash);
  }

  private async load(hash: string): Promise<Partner | null> {
    const generation = this.generation;
    const found = await this.keys.authenticate(hash);
    if (!found || !sameDigest(found.hash, hash)) {
      this.unknown?.set(hash, true);
      return null;
    }
    if (generation === this.generation) {
      if (this.entries.size > 10_000) this.entries.clear();
      this.entries.set(hash, { partner: found.partner, keyId: found.keyId, until: Date.now() + this.config.API_KEY_CACHE_MS });
    }
    return found.partner;
  }
}
