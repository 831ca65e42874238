import { AskedWithdrawal, BookEntry, chainAuditLine, ChainTransfer, judgeChain, NetworkReading, WalletReading } from './chain-audit';

const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const WALLET_2 = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const A = '0x1111111111111111111111111111111111111111';
const B = '0x2222222222222222222222222222222222222222';
const DEAD = '0x000000000000000000000000000000000000dEaD';
const h = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

const book = (id: number, over: Partial<BookEntry> = {}): BookEntry => ({
  id,
  address: A,
  amountMicros: 1_000_000n,
  state: 'settled',
  txHash: h(id),
  blockNumber: 10n,
  versions: [h(id)],
  ...over,
});
const transfer = (txHash: string, to = A, value = 1_000_000n): ChainTransfer => ({ to, value, txHash, blockNumber: 10n });
const asked = (id: number, over: Partial<AskedWithdrawal> = {}): AskedWithdrawal => ({
  id,
  network: 'MATIC',
  address: A,
  amountMicros: 1_000_000n,
  final: { state: 'settled', tx_hash: h(id), address: A, usdtmicros: 1_000_000, network: 'MATIC' },
  ...over,
});
const wallet = (books: BookEntry[], transfers: ChainTransfer[], over: Partial<WalletReading> = {}): WalletReading => ({
  wallet: WALLET,
  transfers,
  books,
  nextNonce: books.filter((b) => b.versions.length > 0).length,
  chainNonce: books.filter((b) => b.versions.length > 0).length,
  ...over,
});
/** A network paying from one wallet (`over`: the wallet's fields and the network's). */
const reading = (
  books: BookEntry[],
  transfers: ChainTransfer[],
  { fromBlock = 0n, outside, ...over }: Partial<WalletReading> & Partial<Omit<NetworkReading, 'wallets'>> = {},
): NetworkReading => ({ network: 'MATIC', fromBlock, outside, wallets: [wallet(books, transfers, over)] });
/** A network paying from a pool of wallets. */
const pool = (...wallets: WalletReading[]): NetworkReading => ({ network: 'MATIC', fromBlock: 0n, wallets });
const counts = (a: ReturnType<typeof judgeChain>) => chainAuditLine(a);

describe('judgeChain (the on-chain verdict of a chaos run)', () => {
  it('a settled withdrawal paid once as asked, a failed one with nothing moved: clean', () => {
    const failed = book(2, { address: DEAD, state: 'failed' });
    const a = judgeChain(
      [
        asked(1),
        asked(2, { address: DEAD, final: { state: 'failed', tx_hash: h(2), address: DEAD, usdtmicros: 1_000_000, network: 'MATIC' } }),
      ],
      [reading([book(1), failed], [transfer(h(1))])],
    );

    expect(counts(a)).toBe('chain audit: 1 paid, 0 paid twice, 0 missing, 0 drift');
    expect(a.failedUnpaid).toBe(1);
    expect(a.failures).toEqual([]);
  });

  it('a second transaction of the same withdrawal mined (another nonce): paid twice, and the outflow drifts', () => {
    const a = judgeChain([asked(1)], [reading([book(1, { versions: [h(1), h(99)] })], [transfer(h(1)), transfer(h(99))])]);

    expect(counts(a)).toBe('chain audit: 0 paid, 1 paid twice, 0 missing, 1 drift');
    expect(a.failures.join('\n')).toContain('withdrawal 1 (settled');
  });

  it('a failed withdrawal whose transaction moved USDT after all: paid twice', () => {
    const a = judgeChain(
      [asked(3, { final: { state: 'failed', tx_hash: h(3), address: A, usdtmicros: 1_000_000, network: 'MATIC' } })],
      [reading([book(3, { state: 'failed' })], [transfer(h(3))])],
    );

    expect(a.paidTwice).toBe(1);
    expect(a.failedUnpaid).toBe(0);
    expect(a.failures.join('\n')).toContain('failed but was paid');
  });

  it('settled without its transfer, to another address or of another amount: missing', () => {
    expect(counts(judgeChain([asked(1)], [reading([book(1)], [])]))).toBe('chain audit: 0 paid, 0 paid twice, 1 missing, 1 drift');
    expect(judgeChain([asked(1)], [reading([book(1)], [transfer(h(1), B)])]).missing).toBe(1);
    expect(judgeChain([asked(1)], [reading([book(1)], [transfer(h(1), A, 999_999n)])]).missing).toBe(1);
  });

  it('an accepted withdrawal not final at the deadline, or answered other than it was asked: missing', () => {
    const open = judgeChain([asked(1, { final: undefined })], [reading([], [])]);
    expect(open.missing).toBe(1);
    const other = judgeChain(
      [asked(1, { final: { state: 'settled', tx_hash: h(1), address: B, usdtmicros: 1_000_000, network: 'MATIC' } })],
      [reading([book(1, { address: B })], [transfer(h(1), B)])],
    );
    expect(other.missing).toBe(1);
  });

  it('a transfer from the wallet no withdrawal names, and a nonce signed but never mined: drift', () => {
    const stray = judgeChain([asked(1)], [reading([book(1)], [transfer(h(1)), transfer(h(77), B)])]);
    expect(counts(stray)).toBe('chain audit: 1 paid, 0 paid twice, 0 missing, 2 drift');
    const nonce = judgeChain([asked(1)], [reading([book(1)], [transfer(h(1))], { nextNonce: 2, chainNonce: 1 })]);
    expect(nonce.drift).toBe(1);
  });

  it('withdrawals outside the load (before the window, or of other partners) are checked the same way, not counted as paid', () => {
    const before = book(5, { blockNumber: 3n, address: B });
    const other = book(6, { address: B });
    const a = judgeChain(
      [asked(1)],
      [reading([book(1), before, other], [transfer(h(1)), transfer(h(6), B)], { fromBlock: 5n, nextNonce: 3, chainNonce: 3 })],
    );

    expect(counts(a)).toBe('chain audit: 1 paid, 0 paid twice, 0 missing, 0 drift');
    expect(a.othersPaid).toBe(1);
  });

  it("a fault's outside transfer is no withdrawal (no drift), and fails the audit unless it was reported", () => {
    const out = transfer(h(88), B, 5_000_000n);
    // The outside transfer took a nonce of the wallet: the service's next nonce counts it once its finding is resolved.
    const at = { nextNonce: 2, chainNonce: 2 };
    const reported = judgeChain(
      [asked(1)],
      [reading([book(1)], [transfer(h(1)), out], { ...at, outside: { hashes: [h(88)], reported: [h(88)] } })],
    );
    expect(counts(reported)).toBe('chain audit: 1 paid, 0 paid twice, 0 missing, 0 drift');
    expect([reported.outsideTransfers, reported.outsideReported, reported.failures]).toEqual([1, 1, []]);
    const unreported = judgeChain(
      [asked(1)],
      [reading([book(1)], [transfer(h(1)), out], { ...at, outside: { hashes: [h(88)], reported: [] } })],
    );
    expect([unreported.outsideTransfers, unreported.outsideReported]).toEqual([1, 0]);
    expect(unreported.failures).toEqual([`MATIC: the outside transfer ${h(88)} (5000000 to ${B}) was not reported as a finding`]);
    const absent = judgeChain([asked(1)], [reading([book(1)], [transfer(h(1))], { outside: { hashes: [h(89)], reported: [] } })]);
    expect(absent.failures).toEqual([`MATIC: the outside transfer ${h(89)} is not on chain`]);
  });

  describe('a pool of hot wallets', () => {
    it('withdrawals paid from either wallet, each wallet balanced on its own: clean', () => {
      const a = judgeChain(
        [
          asked(1),
          asked(2, { address: B, final: { state: 'settled', tx_hash: h(2), address: B, usdtmicros: 1_000_000, network: 'MATIC' } }),
        ],
        [pool(wallet([book(1)], [transfer(h(1))]), wallet([book(2, { address: B })], [transfer(h(2), B)], { wallet: WALLET_2 }))],
      );

      expect(counts(a)).toBe('chain audit: 2 paid, 0 paid twice, 0 missing, 0 drift');
      expect(a.networks.map((n) => [n.wallet, n.transfers])).toEqual([
        [WALLET, 1],
        [WALLET_2, 1],
      ]);
    });

    it("a withdrawal paid by one wallet and again by another wallet's version of it: paid twice", () => {
      // The second wallet's books name it no more (it moved to the first), but its signed version was mined.
      const moved = book(1, { versions: [h(50), h(1)] });
      const a = judgeChain(
        [asked(1)],
        [pool(wallet([moved], [transfer(h(1))]), wallet([], [transfer(h(50))], { wallet: WALLET_2, nextNonce: 1, chainNonce: 1 }))],
      );

      expect(a.paidTwice).toBe(1);
      expect(a.failures.join('\n')).toContain(`withdrawal 1 (settled, booked ${h(1)}) was also paid by ${h(50)}`);
    });

    it("a transfer from a wallet other than the one its books name: missing, and both wallets' outflows drift", () => {
      const a = judgeChain(
        [asked(1)],
        [pool(wallet([book(1)], []), wallet([], [transfer(h(1))], { wallet: WALLET_2, nextNonce: 1, chainNonce: 1 }))],
      );

      expect(a.paid).toBe(0);
      expect(a.missing).toBe(1);
      expect(a.drift).toBe(2);
    });

    it("one wallet's nonce behind its chain nonce is drift of that wallet alone", () => {
      const a = judgeChain(
        [asked(1)],
        [pool(wallet([book(1)], [transfer(h(1))]), wallet([], [], { wallet: WALLET_2, nextNonce: 3, chainNonce: 4 }))],
      );

      expect(counts(a)).toBe('chain audit: 1 paid, 0 paid twice, 0 missing, 1 drift');
      expect(a.failures).toEqual([`MATIC: the service's next nonce of ${WALLET_2} is 3, its nonce on chain 4`]);
    });

    it("an outside transfer from the pool's second wallet is left out and must be reported", () => {
      const out = transfer(h(88), B, 5_000_000n);
      const a = judgeChain(
        [asked(1)],
        [
          {
            ...pool(wallet([book(1)], [transfer(h(1))]), wallet([], [out], { wallet: WALLET_2, nextNonce: 1, chainNonce: 1 })),
            outside: { hashes: [h(88)], reported: [h(88)] },
          },
        ],
      );

      expect(counts(a)).toBe('chain audit: 1 paid, 0 paid twice, 0 missing, 0 drift');
      expect([a.outsideTransfers, a.outsideReported]).toEqual([1, 1]);
    });
  });
});
