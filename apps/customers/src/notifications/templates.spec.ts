import { BUSINESS_CUSTOMER_EXAMPLE } from '@partner/contracts';
import { ownerEmail, ownerSms, TemplateData } from './templates';

const [maria, joao] = BUSINESS_CUSTOMER_EXAMPLE.owners;
const data = (changes: Partial<TemplateData> = {}): TemplateData => ({
  legalName: BUSINESS_CUSTOMER_EXAMPLE.legal_name,
  tradeName: BUSINESS_CUSTOMER_EXAMPLE.trade_name,
  ownerName: maria.name,
  ownerSocialName: maria.social_name ?? null,
  ownerType: 'partner',
  ...changes,
});

/** Every document of the example registration: the CNPJ and each owner's CPF, in any punctuation. */
const DOCUMENTS = [BUSINESS_CUSTOMER_EXAMPLE.cnpj, maria.document, joao.document];
const DOCUMENT_SHAPES = /\d{3}\.?\d{3}\.?\d{3}-?\d{2}|[0-9A-Z]{2}\.?[0-9A-Z]{3}\.?[0-9A-Z]{3}\/?[0-9A-Z]{4}-?\d{2}/;

const texts = (d: TemplateData) => {
  const email = ownerEmail(maria.email, d);
  return [email.subject, email.text, ownerSms(maria.phone, d).body];
};

describe('owner notification templates', () => {
  it('writes the e-mail in Portuguese, naming the business and greeting the owner by the social name', () => {
    const email = ownerEmail(maria.email, data());
    expect(email).toEqual({
      to: 'maria@acme.com.br',
      subject: 'Cadastro da empresa Acme',
      text: expect.stringContaining('Olá, Maria.'),
    });
    expect(email.text).toContain('A empresa Acme (Acme Pagamentos Ltda) foi cadastrada e você consta no cadastro como sócio(a).');
    expect(email.text).toContain('Se você não reconhece este cadastro');
  });

  it('writes the SMS in Portuguese, short, to the phone', () => {
    const sms = ownerSms(joao.phone, data({ ownerName: joao.name, ownerSocialName: null, ownerType: 'representative' }));
    expect(sms).toEqual({
      to: '+5521998765432',
      body: 'Olá, João Souza. A empresa Acme foi cadastrada e você consta como representante. Não reconhece? Procure a instituição em que ela foi cadastrada.',
    });
    expect(sms.body.length).toBeLessThanOrEqual(160);
  });

  it('names the business by its legal name when it has no trade name', () => {
    const d = data({ tradeName: null });
    expect(ownerEmail(maria.email, d).subject).toBe('Cadastro da empresa Acme Pagamentos Ltda');
    expect(ownerEmail(maria.email, d).text).toContain('A empresa Acme Pagamentos Ltda foi cadastrada');
    expect(ownerSms(maria.phone, d).body).toContain('A empresa Acme Pagamentos Ltda foi cadastrada');
  });

  it('contains no CPF, no CNPJ, no address, phone or e-mail in any subject or body', () => {
    for (const d of [data(), data({ tradeName: null, ownerSocialName: null }), data({ ownerType: 'representative' })]) {
      for (const text of texts(d)) {
        for (const document of DOCUMENTS) expect(text).not.toContain(document);
        expect(text).not.toMatch(DOCUMENT_SHAPES);
        expect(text).not.toMatch(/@|\+\d|\d{5}/);
        expect(text).not.toContain(maria.address.street);
      }
    }
  });

  it('keeps names on one line: no header or line injection through a name', () => {
    const email = ownerEmail(maria.email, data({ tradeName: 'Acme\r\nBcc: x@y.z', ownerSocialName: 'Maria\n\nClique aqui' }));
    expect(email.subject).toBe('Cadastro da empresa Acme Bcc: x@y.z');
    expect(email.text.split('\n')[0]).toBe('Olá, Maria Clique aqui.');
  });
});
