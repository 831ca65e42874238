import { Inject, Injectable, Logger } from '@nestjs/common';
import { Network } from '@partner/contracts';
import { UnitOfWork } from '@partner/db';
import { HotWalletRepository } from '../hot-wallets/hot-wallet.repository';
import { FindingRepository, findingSubject } from './finding.repository';
import { PayoutMetrics } from './payout-metrics';
import { Address, PAYOUT_RAILS, PayoutRails } from '../hot-wallets/payout-rail';

/** Why a wallet signs nothing now: the open nonce_ahead finding that stopped it (`recorded`: by this call). */
export interface WalletStop {
  findingId: number;
  detail: string;
  recorded: boolean;
}

/**
 * The books' next nonce against the chain's count of the wallet's transactions. A chain AHEAD of the books
 * means a transaction this service never signed was mined from the hot wallet (a stolen key, a database
 * restored from a backup that re-uses nonces): the wallet stops signing on that network, a nonce_ahead
 * finding names the nonces, and it stays stopped until an operator resolves that finding. Called before
 * each signing round and by the reconciliation; a signer of several wallets calls it per wallet.
 */
@Injectable()
export class GuardWalletNonceUseCase {
  private readonly logger = new Logger('payouts');

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly hotWallets: HotWalletRepository,
    private readonly findings: FindingRepository,
    private readonly metrics: PayoutMetrics,
    @Inject(PAYOUT_RAILS) private readonly rails: PayoutRails,
  ) {}

  /** The wallet's stop (null: it may sign). The wallet must be registered. */
  async execute(network: Network, address: Address, now = new Date()): Promise<WalletStop | null> {
    // The chain first, then the books: the books' nonce only grows meanwhile, so our own signing can
    // never make the chain look ahead.
    const minedNonce = await this.rails[network].minedNonce(address);
    const stop = await this.unitOfWork.run(async (tx): Promise<WalletStop | null> => {
      const wallet = await this.hotWallets.lock(tx, network, address);
      if (wallet.stopped) return { ...wallet.stopped, recorded: false };
      if (minedNonce <= wallet.nextNonce) return null;
      const detail =
        `the chain counts ${minedNonce} transactions from ${wallet.address}, the books handed out nonces up to ${wallet.nextNonce - 1n}: ` +
        `nonces ${wallet.nextNonce} to ${minedNonce - 1n} were mined by transactions this service never signed; ` +
        'signing from this wallet stops until this finding is resolved';
      const id = await this.findings.record(network, 'nonce_ahead', null, findingSubject.nonce(wallet.address, minedNonce), detail, tx);
      // Recorded and resolved before: resolving took the chain's count as the next nonce, so this cannot be.
      if (id === null) return null;
      await this.hotWallets.stop(tx, network, address, id, now);
      return { findingId: id, detail, recorded: true };
    });
    if (stop?.recorded) {
      this.metrics.mismatches.inc({ network, kind: 'nonce_ahead' });
      this.logger.error(`hot wallet ${address} on ${network} stopped (finding ${stop.findingId}, nonce_ahead): ${stop.detail}`);
    }
    return stop;
  }
}
