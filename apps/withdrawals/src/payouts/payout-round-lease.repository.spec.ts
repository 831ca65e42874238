import { goneFromThisHost, LeaseHolder } from './payout-round-lease.repository';

describe('goneFromThisHost', () => {
  const self: LeaseHolder = { host: 'payouts-7f9c', pid: 1, boot: 'b2' };
  const alive = (pids: number[]) => (pid: number) => pids.includes(pid);

  it('reads an earlier start under this pid as gone, this start as not', () => {
    expect(goneFromThisHost('payouts-7f9c:1:b1:r1', self, alive([]))).toBe(true);
    expect(goneFromThisHost('payouts-7f9c:1:b2:r1', self, alive([]))).toBe(false);
    // Written before owners named their start (`host:pid:round`): not this start either.
    expect(goneFromThisHost('payouts-7f9c:1:r0', self, alive([]))).toBe(true);
  });

  it('reads another pid of this host by whether it runs', () => {
    expect(goneFromThisHost('payouts-7f9c:42:b1:r1', self, alive([]))).toBe(true);
    expect(goneFromThisHost('payouts-7f9c:42:b1:r1', self, alive([42]))).toBe(false);
  });

  it('never reads another host, or an owner it cannot parse, as gone', () => {
    expect(goneFromThisHost('payouts-0001:42:b1:r1', self, alive([]))).toBe(false);
    for (const owner of ['crashed:1', 'payouts-7f9c', 'payouts-7f9c:x:b1', 'payouts-7f9c:0:b1', '']) {
      expect({ owner, gone: goneFromThisHost(owner, self, alive([])) }).toEqual({ owner, gone: false });
    }
  });
});
