/**
 * The sandbox's helpers (SANDBOX=true gateways: docs/api.md, "Sandbox") and the partner API's withdraw, events
 * and ack, on the public port. `notifications sent` reads the local sinks of a development stack.
 */
import { randomUUID } from 'node:crypto';
import { Schemas } from '@partner/api-client';
import { Commands, defined, print } from '../command-context';
import { listReceived, sinkUrlOf } from './notifications-sent.command';

type Withdrawal = Schemas['CreateUsdtWithdrawalRequest'];

export const SANDBOX_COMMANDS: Commands = {
  'partner create': async (c) => print(await c.sandboxAdminApi().POST('/sandbox/v1/partners', { body: defined({ name: c.flags.name }) })),
  'user credit': async (c) =>
    print(
      await c.partnerApi().POST('/sandbox/v1/users', {
        body: { document: c.need('document'), usdt_micros: Number(c.need('micros')), ...defined({ name: c.flags.name }) },
      }),
    ),
  withdraw: async (c) => {
    const api = c.partnerApi();
    const body: Withdrawal = {
      document: c.need('document'),
      idempotency_key: c.flags.key ?? randomUUID(),
      address: c.need('address'),
      usdtmicros: Number(c.need('micros')),
      // As typed: the gateway answers invalid_fee / invalid_request for anything else.
      fee_choice: c.flags.fee as Withdrawal['fee_choice'],
      network: c.flags.network as Withdrawal['network'],
    };
    console.log(`idempotency_key ${body.idempotency_key}`);
    return print(await api.POST('/partner/v1/withdrawals/usdt', { body }));
  },
  events: async (c) => {
    const api = c.partnerApi();
    const { delivered } = c.flags;
    if (delivered !== 'true' && delivered !== 'false') throw new Error('--delivered must be true or false');
    return print(
      await api.GET('/partner/v1/events', {
        params: { query: { delivered: delivered === 'true', ...defined({ limit: c.number('limit') }) } },
      }),
    );
  },
  ack: async (c) => {
    const api = c.partnerApi();
    if (c.args.length === 0) throw new Error('ack: name at least one EVENT_ID (see --help)');
    let failures = 0;
    for (const id of c.args) failures += print(await api.PATCH('/partner/v1/events/{id}', { params: { path: { id } } }));
    return failures ? 1 : 0;
  },
  'notifications sent': async (c) => listReceived(sinkUrlOf(c.env)),
};
