import { EmailMessage, SmsMessage } from './owner-message';

/** What the templates may say about the business and its owner: names only. */
export interface TemplateData {
  legalName: string;
  tradeName: string | null;
  ownerName: string;
  /** The owner's social (preferred) name, used instead of the legal name when given. */
  ownerSocialName: string | null;
  ownerType: 'partner' | 'representative' | 'other_partner';
}

/** A name as one line of text: control characters and runs of white space become one space (no header or line injection). */
const oneLine = (text: string) => text.replace(/[\p{Cc}\p{Zl}\p{Zp}\s]+/gu, ' ').trim();

/** How the business is named: its trade name, else its legal name. */
const businessName = (d: TemplateData) => oneLine(d.tradeName ?? d.legalName);

/** The business named in full: the trade name with the legal name beside it when they differ. */
const businessFullName = (d: TemplateData) => {
  const trade = d.tradeName === null ? null : oneLine(d.tradeName);
  const legal = oneLine(d.legalName);
  return trade === null || trade === legal ? legal : `${trade} (${legal})`;
};

const greetingName = (d: TemplateData) => oneLine(d.ownerSocialName ?? d.ownerName);

/** The owner's part in the business, in Portuguese (gender-neutral). */
const ROLE: Record<TemplateData['ownerType'], string> = {
  partner: 'sócio(a)',
  other_partner: 'sócio(a)',
  representative: 'representante',
};

/**
 * The e-mail to an owner, in Portuguese: the business by its names and the owner by name, nothing else.
 * No CPF, CNPJ, address, birth date or phone: the names are enough for the owner to recognise the
 * registration, and a document number in an e-mail is what phishing imitates.
 */
export function ownerEmail(to: string, d: TemplateData): Omit<EmailMessage, 'key'> {
  const business = businessName(d);
  return {
    to,
    subject: `Cadastro da empresa ${business}`,
    text: [
      `Olá, ${greetingName(d)}.`,
      '',
      `A empresa ${businessFullName(d)} foi cadastrada e você consta no cadastro como ${ROLE[d.ownerType]}.`,
      '',
      'Se você não reconhece este cadastro, entre em contato com a instituição em que a empresa foi cadastrada.',
      'Nunca pedimos senhas ou códigos por e-mail ou SMS.',
      '',
      'Esta é uma mensagem automática; não é preciso respondê-la.',
      '',
    ].join('\n'),
  };
}

/** The SMS to an owner, in Portuguese: as short as the e-mail allows, names only (see ownerEmail). */
export function ownerSms(to: string, d: TemplateData): SmsMessage {
  return {
    to,
    body: `Olá, ${greetingName(d)}. A empresa ${businessName(d)} foi cadastrada e você consta como ${ROLE[d.ownerType]}. Não reconhece? Procure a instituição em que ela foi cadastrada.`,
  };
}
