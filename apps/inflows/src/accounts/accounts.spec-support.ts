import { PartnerId } from '@partner/contracts';
import { newCpf, testPartnerId } from '@partner/testing';
import { Database, UnitOfWork } from '@partner/db';
import { InflowsConfig } from '../config/inflows.config';
import { IngestPixInflowUseCase } from '../pix-inflows/ingest-pix-inflow.use-case';
import { PixInflowRepository } from '../pix-inflows/pix-inflow.repository';
import { UnmatchedPixInflowRepository } from '../pix-inflows/unmatched-pix-inflow.repository';
import { PartnerStatusRepository } from '../partner-statuses/partner-status.repository';
import { newEndToEndId } from '../spi-simulator/end-to-end-id';
import { completeSender } from '../spi-simulator/sender-details';
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

/** A credited inflow's payment and its user. */
export interface CreditedInflow {
  partnerId: PartnerId;
  document: string;
  endToEndId: string;
}

/**
 * A Pix of `cents` notified through to `credited` (processing, approved, success, credited) to a user's account:
 * a new partner's new user's, or `to`'s (the same user again).
 */
export async function creditInflow(
  db: Database,
  config: InflowsConfig,
  cents: number,
  to?: { partnerId: PartnerId; document: string },
): Promise<CreditedInflow> {
  const partnerId = to?.partnerId ?? testPartnerId();
  const document = to?.document ?? newCpf();
  const account = to ? await new AccountRepository(db).find(partnerId, document) : await openAccount(db, config, partnerId, document);
  if (!account) throw new Error(`no account for ${document}`);
  const sender = completeSender({});
  const endToEndId = newEndToEndId(sender.sender_bank_code, new Date());
  const ingest = ingestionOn(db, config);
  for (const status of ['processing', 'approved', 'success', 'credited'] as const) {
    const reply = await ingest.execute({
      end_to_end_id: endToEndId,
      amount_cents: cents,
      method: 'manual',
      receiver_account: receiverOf(config, account),
      ...sender,
      status,
    });
    if (!reply.ok) throw new Error(JSON.stringify(reply.error));
  }
  return { partnerId, document, endToEndId };
}
