import { Injectable } from '@nestjs/common';
import { PartnerId, SandboxUserRequest, SandboxUserResponse } from '@partner/contracts';
import { randomUUID } from 'node:crypto';
import { CreditUserUseCase } from '../users/credit-user.use-case';
import { GetUserBalanceUseCase } from '../users/get-user-balance.use-case';
import { RegisterUserUseCase } from '../users/register-user.use-case';
import { sandboxHolderName } from './sandbox-holder-name';

/**
 * The sandbox's one-call user: registered in every service (the operator API's registration, with the holder's
 * name when given, else a made-up one for a user that has none, answering the user's payment account), credited
 * when usdt_micros > 0 (a credit of its own each call: a fresh idempotency key, reference `sandbox`), and
 * answered with the available balance. `created`: the user is new.
 */
@Injectable()
export class UpsertSandboxUserUseCase {
  constructor(
    private readonly registerUser: RegisterUserUseCase,
    private readonly creditUser: CreditUserUseCase,
    private readonly getBalance: GetUserBalanceUseCase,
  ) {}

  async execute(partnerId: PartnerId, request: SandboxUserRequest): Promise<SandboxUserResponse & { created: boolean }> {
    const { document, usdt_micros, name } = request;
    // A partner following the contract asks for a key with the CPF alone: a sandbox user always has a name for DICT.
    const { created, account } = await this.registerUser.execute(partnerId, document, name, sandboxHolderName(document));
    const balance =
      usdt_micros > 0
        ? await this.creditUser.sandbox(partnerId, document, { usdt_micros, idempotency_key: randomUUID(), reference: 'sandbox' })
        : await this.getBalance.execute(partnerId, document);
    return { document, usdt_micros: balance.available_usdt_micros, account, created };
  }
}
