import { PartnerId } from '@partner/contracts';
import { Database, UnitOfWork } from '@partner/db';
import { InflowsConfig } from '../config/inflows.config';
import { IngestPixInflowUseCase } from '../pix-inflows/ingest-pix-inflow.use-case';
import { PixInflowRepository } from '../pix-inflows/pix-inflow.repository';
import { UnmatchedPixInflowRepository } from '../pix-inflows/unmatched-pix-inflow.repository';
import { PartnerStatusRepository } from '../partner-statuses/partner-status.repository';
import { AccountRepository, UserAccountRecord } from './account.repository';

/** The inflows service's ingestion, wired as the service wires it, on a spec's database and config. */
export function ingestionOn(db: Database, config: InflowsConfig): IngestPixInflowUseCase {
  return new IngestPixInflowUseCase(
    config,
    new UnitOfWork(db, { wake: () => undefined }),
    new PixInflowRepository(db),
    new UnmatchedPixInflowRepository(db),
    new AccountRepository(db),
    new PartnerStatusRepository(db),
  );
}

/** Registers the user here as the upsert-user command does (the user and their payment account); answers the account. */
export async function openAccount(
  db: Database,
  config: InflowsConfig,
  partnerId: PartnerId,
  document: string,
  name?: string,
): Promise<UserAccountRecord> {
  const unitOfWork = new UnitOfWork(db, { wake: () => undefined });
  const { account } = await unitOfWork.run((tx) =>
    new AccountRepository(db).open(tx, { partnerId, document, name, branch: config.ACCOUNT_BRANCH, now: new Date() }),
  );
  return account;
}

/** The receiving account of a Pix to that account, as the provider names it. */
export const receiverOf = (config: InflowsConfig, account: UserAccountRecord) => ({
  ispb: config.OPERATOR_ISPB,
  branch: account.branch,
  number: account.number,
  type: account.type,
});
