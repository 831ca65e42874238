/**
 * A complete, valid body of POST /partner/v1/customers/business: the OpenAPI example, and the base the
 * tests change one field of. Plain data (a JSON body), not an instance of the request class.
 */
export const BUSINESS_CUSTOMER_EXAMPLE = {
  cnpj: '12ABC34501DE35',
  legal_name: 'Acme Pagamentos Ltda',
  trade_name: 'Acme',
  email: 'finance@acme.com.br',
  phone: '+551133334444',
  address: {
    street: 'Avenida Paulista',
    number: '1578',
    complement: 'Sala 42',
    neighborhood: 'Bela Vista',
    city: 'São Paulo',
    state: 'SP',
    postal_code: '01310200',
  },
  owners: [
    {
      owner_type: 'partner',
      name: 'Maria da Silva',
      social_name: 'Maria',
      document: '52998224725',
      email: 'maria@acme.com.br',
      phone: '+5511987654321',
      birth_date: '1985-04-12',
      nationality_country_code: 'BR',
      tax_residence_country_code: 'BR',
      address: {
        street: 'Rua Augusta',
        number: '100',
        neighborhood: 'Consolação',
        city: 'São Paulo',
        state: 'SP',
        postal_code: '01304000',
      },
      ownership: { ownership_type: 'direct', ownership_bps: 6000 },
    },
    {
      owner_type: 'representative',
      name: 'João Souza',
      document: '11144477735',
      email: 'joao@acme.com.br',
      phone: '+5521998765432',
      birth_date: '1990-11-03',
      nationality_country_code: 'PT',
      tax_residence_country_code: 'BR',
      address: {
        street: 'Rua do Catete',
        number: '90',
        neighborhood: 'Catete',
        city: 'Rio de Janeiro',
        state: 'RJ',
        postal_code: '22220000',
      },
      ownership: { ownership_type: 'indirect', ownership_bps: 4000 },
    },
  ],
  metadata: { external_id: 'acme-001' },
  config: { auto_send_owner_sms: true, auto_send_owner_email: false },
};
