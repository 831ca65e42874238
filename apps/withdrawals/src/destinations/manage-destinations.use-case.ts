import { Injectable, Logger } from '@nestjs/common';
import {
  addressChallenge,
  fail,
  GetWithdrawalPolicyQuery,
  ListAddressesQuery,
  ok,
  RemoveAddressCommand,
  RequestReply,
  SaveAddressCommand,
  SetWithdrawalPolicyCommand,
  Topics,
  WithdrawalPolicyView,
} from '@partner/contracts';
import { verifyMessage } from 'viem';
import { AccountRepository } from '../accounts/account.repository';
import { DestinationsRepository } from './destinations.repository';
import { toPolicyView, toSavedAddressView } from './destination-views';

/**
 * A partner's withdrawal policy (set by the operator) and its users' address books (kept by the partner): what
 * a withdrawal's destination is checked against (destination-rule.ts). A proof of control given with an
 * address is verified (EIP-191, viem's verifyMessage) before anything is kept.
 */
@Injectable()
export class ManageDestinationsUseCase {
  private readonly logger = new Logger('destinations');

  constructor(
    private readonly destinations: DestinationsRepository,
    private readonly accounts: AccountRepository,
  ) {}

  async setPolicy(c: SetWithdrawalPolicyCommand): Promise<WithdrawalPolicyView> {
    const policy = {
      beneficiaryRequired: c.beneficiary_required ?? false,
      addressBookOnly: c.address_book_only ?? false,
      addressCooldownSeconds: c.address_cooldown_seconds ?? 0,
    };
    await this.destinations.setPolicy(c.partner_id, policy, c.by, new Date(c.asked_at));
    this.logger.log(`${c.by} set the withdrawal policy of partner ${c.partner_id}: ${JSON.stringify(policy)}`);
    return toPolicyView(c.partner_id, await this.destinations.policy(c.partner_id));
  }

  async policy(q: GetWithdrawalPolicyQuery): Promise<WithdrawalPolicyView> {
    return toPolicyView(q.partner_id, await this.destinations.policy(q.partner_id));
  }

  async save(c: SaveAddressCommand): Promise<RequestReply<typeof Topics.WithdrawalsSaveAddress>> {
    const address = c.address.toLowerCase();
    if (c.proof && !(await this.proves(c.proof.signature, address, addressChallenge(c.partner_id, c.document, address))))
      return fail('invalid_proof', `proof.signature was not made by ${address} over the challenge`, 'proof.signature');
    const entry = { address, label: c.label ?? null, beneficiary: c.beneficiary, proof: c.proof?.signature ?? null };
    const saved = await this.destinations.save(c.partner_id, c.document, entry, new Date());
    if (!saved) return fail('user_not_found', `no user with document ${c.document}`);
    return ok(toSavedAddressView(saved, await this.destinations.policy(c.partner_id)));
  }

  async remove(c: RemoveAddressCommand): Promise<RequestReply<typeof Topics.WithdrawalsRemoveAddress>> {
    const removed = await this.destinations.remove(c.partner_id, c.document, c.address.toLowerCase());
    if (!removed) return fail('not_found', `${c.address.toLowerCase()} is not among the saved addresses of user ${c.document}`);
    return ok(toSavedAddressView(removed, await this.destinations.policy(c.partner_id)));
  }

  async list(q: ListAddressesQuery): Promise<RequestReply<typeof Topics.WithdrawalsAddresses>> {
    if (!(await this.accounts.find(q.partner_id, q.document))) return fail('user_not_found', `no user with document ${q.document}`);
    const [saved, policy] = await Promise.all([this.destinations.list(q.partner_id, q.document), this.destinations.policy(q.partner_id)]);
    return ok({ addresses: saved.map((s) => toSavedAddressView(s, policy)) });
  }

  /** Whether `signature` is the EIP-191 signature of `message` by `address` (a malformed signature is not). */
  private async proves(signature: string, address: string, message: string): Promise<boolean> {
    try {
      return await verifyMessage({ address: address as `0x${string}`, message, signature: signature as `0x${string}` });
    } catch {
      return false;
    }
  }
}
