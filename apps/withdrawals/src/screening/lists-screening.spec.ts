import { ListsScreening } from './lists-screening';
import { Listing } from './screening.repository';

const A = '0x00000000000000000000000000000000000000aa';
const B = '0x00000000000000000000000000000000000000bb';

/** Lists held in memory, and a token whose blacklist answers from a set (or fails, as a node down). */
function screeningOf(listings: Listing[], token: { listed?: string[]; down?: boolean }) {
  const asked: string[] = [];
  const rail = {
    blacklisted: async (address: string) => {
      asked.push(address.toLowerCase());
      if (token.down) throw new Error('fetch failed');
      return (token.listed ?? []).includes(address.toLowerCase());
    },
  };
  const lists = { listed: async (addresses: readonly string[]) => listings.filter((l) => addresses.includes(l.address)) };
  return { screening: new ListsScreening(lists, { ETH: rail, MATIC: rail }), asked };
}

describe('ListsScreening', () => {
  it("names the list that holds each address, the SDN copy's date included; an address on no list is clear", async () => {
    const { screening } = screeningOf(
      [
        { address: A, list: 'ofac_sdn', publishedAt: new Date('2024-09-27T00:35:17Z') },
        { address: A, list: 'deny_list', publishedAt: null },
      ],
      { listed: [B] },
    );
    const hits = await screening.screen(
      'ETH',
      [A.toUpperCase().replace('0X', '0x'), B, '0x00000000000000000000000000000000000000cc'],
      'signing',
    );
    expect(Object.fromEntries(hits)).toEqual({
      [A]: {
        list: 'ofac_sdn',
        message: `address ${A} is on the OFAC SDN list (the copy published 2024-09-27): withdrawals to it are refused`,
      },
      [B]: {
        list: 'token_blacklist',
        message: `address ${B} is blacklisted by the USDT contract on ETH (isBlackListed): withdrawals to it are refused`,
      },
    });
  });

  it("at a request, keeps the token's answer a while and passes over a node that does not answer (signing asks again)", async () => {
    const up = screeningOf([], { listed: [B] });
    await up.screening.screen('MATIC', [B], 'request');
    expect((await up.screening.screen('MATIC', [B], 'request')).get(B)?.list).toBe('token_blacklist');
    expect(up.asked).toEqual([B]);
    const down = screeningOf([], { down: true });
    await expect(down.screening.screen('MATIC', [B], 'request')).resolves.toEqual(new Map());
  });

  it('at signing, asks the node every time and fails when it does not answer: nothing is signed unscreened', async () => {
    const up = screeningOf([], {});
    await up.screening.screen('ETH', [A], 'signing');
    await up.screening.screen('ETH', [A], 'signing');
    expect(up.asked).toEqual([A, A]);
    await expect(screeningOf([], { down: true }).screening.screen('ETH', [A], 'signing')).rejects.toThrow('fetch failed');
  });
});
