import { Module } from '@nestjs/common';
import { HotWalletsController } from './hot-wallets.controller';
import { ReadChainBooksUseCase } from './read-chain-books.use-case';

/** Operator API: the hot wallets and the reconciliation, kept by the withdrawals service. */
@Module({
  controllers: [HotWalletsController],
  providers: [ReadChainBooksUseCase],
})
export class HotWalletsModule {}
