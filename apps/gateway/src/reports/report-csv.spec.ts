import { reportCsv } from './report-csv';

const row = {
  withdrawal_id: 7,
  settled_at: '2026-11-02T10:00:00.000Z',
  partner_id: '7a0d1a2e-8a43-4c1e-9a0b-3f5c2a1d9e10',
  document: '52998224725',
  asset: 'USDT',
  network: 'MATIC',
  usdt_micros: 1_500_000,
  fee_usdt_micros: 50_000,
  destination: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045',
  tx_hash: '0xabc',
  beneficiary: null,
};

describe("a report's CSV", () => {
  it('has a header and one line per row, CRLF-terminated, empty beneficiary fields when none', () => {
    expect(reportCsv([row]).split('\r\n')).toEqual([
      'withdrawal_id,settled_at,partner_id,document,asset,network,usdt_micros,fee_usdt_micros,destination,tx_hash,beneficiary_wallet,beneficiary_vasp_name,beneficiary_name,beneficiary_document,beneficiary_first_party',
      '7,2026-11-02T10:00:00.000Z,7a0d1a2e-8a43-4c1e-9a0b-3f5c2a1d9e10,52998224725,USDT,MATIC,1500000,50000,0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045,0xabc,,,,,',
      '',
    ]);
  });

  it('quotes a field with a comma, a quote or a line break (RFC 4180)', () => {
    const named = {
      ...row,
      beneficiary: { wallet: 'vasp' as const, vasp_name: 'Exchange "A", Ltd', name: 'Ana\nSouza', first_party: false },
    };
    expect(reportCsv([named]).split('\r\n')[1]).toBe(
      '7,2026-11-02T10:00:00.000Z,7a0d1a2e-8a43-4c1e-9a0b-3f5c2a1d9e10,52998224725,USDT,MATIC,1500000,50000,0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045,0xabc,vasp,"Exchange ""A"", Ltd","Ana\nSouza",,false',
    );
  });
});
