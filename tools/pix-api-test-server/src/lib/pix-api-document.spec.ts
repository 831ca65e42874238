import { PixApiDocument } from './pix-api-document';

describe('PixApiDocument: the vendored Pix API document, read as published', () => {
  const document = new PixApiDocument();

  it("takes a devolução request as the document's example writes it, and the optional fields within their rules", () => {
    expect(document.violations('DevolucaoSolicitada', { valor: '7.89' })).toEqual([]);
    expect(document.violations('DevolucaoSolicitada', { valor: '7.89', natureza: 'ORIGINAL', descricao: 'x'.repeat(140) })).toEqual([]);
  });

  it('refuses what the schema refuses: a valor without two decimals, a descricao over 140, an unknown natureza, no valor', () => {
    expect(document.violations('DevolucaoSolicitada', { valor: '7.8' })).not.toEqual([]);
    expect(document.violations('DevolucaoSolicitada', { valor: 7.89 })).not.toEqual([]);
    expect(document.violations('DevolucaoSolicitada', { valor: '1.00', descricao: 'x'.repeat(141) })).not.toEqual([]);
    expect(document.violations('DevolucaoSolicitada', { valor: '1.00', natureza: 'QUALQUER' })).not.toEqual([]);
    expect(document.violations('DevolucaoSolicitada', {})).not.toEqual([]);
  });

  it('checks an answer against Devolucao: its required fields and a status the document lists', () => {
    const answer = {
      id: 'R1',
      rtrId: 'D12345678202009091000abcde123456',
      valor: '7.89',
      horario: { solicitacao: '2020-09-11T15:25:59.411Z' },
      status: 'EM_PROCESSAMENTO',
    };
    expect(document.violations('Devolucao', answer)).toEqual([]);
    expect(document.violations('Devolucao', { ...answer, status: 'DEVOLVENDO' })).not.toEqual([]);
    expect(document.violations('Devolucao', { ...answer, rtrId: undefined })).not.toEqual([]);
  });
});
