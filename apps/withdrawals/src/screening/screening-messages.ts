import { Network } from '@partner/contracts';

const day = (d: Date) => d.toISOString().slice(0, 10);

/** The sentences a refusal names its list with (the partner reads them in the 422, the operator in the logs). */
export const blockedBecause = {
  ofac_sdn: (address: string, publishedAt: Date | null) =>
    `address ${address} is on the OFAC SDN list${publishedAt ? ` (the copy published ${day(publishedAt)})` : ''}: withdrawals to it are refused`,
  token_blacklist: (address: string, network: Network) =>
    `address ${address} is blacklisted by the USDT contract on ${network} (isBlackListed): withdrawals to it are refused`,
  deny_list: (address: string) => `address ${address} is on the operator's deny list: withdrawals to it are refused`,
};
