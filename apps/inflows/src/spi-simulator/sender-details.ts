// The functions' own entry points, not the package's 640 kB index (libs/validation, brazil.validators.ts).
import { generateCnpj } from '@brazilian-utils/brazilian-utils/generate-cnpj';
import { generateCpf } from '@brazilian-utils/brazilian-utils/generate-cpf';
import { randomInt } from 'node:crypto';
import { SenderDetails } from '../pix-inflows/pix-in-sender';

export type { SenderDetails };

/**
 * Real Pix participants (ISPB as in the Banco Central's list of SPI participants). Digital institutions
 * have a single branch, 0001, and hold payment accounts.
 */
export const PAYER_BANKS: ReadonlyArray<{ ispb: string; name: string; digital: boolean }> = [
  { ispb: '00000000', name: 'Banco do Brasil', digital: false },
  { ispb: '00360305', name: 'Caixa Econômica Federal', digital: false },
  { ispb: '60701190', name: 'Itaú Unibanco', digital: false },
  { ispb: '60746948', name: 'Bradesco', digital: false },
  { ispb: '90400888', name: 'Santander Brasil', digital: false },
  { ispb: '18236120', name: 'Nu Pagamentos', digital: true },
  { ispb: '00416968', name: 'Banco Inter', digital: true },
  { ispb: '31872495', name: 'Banco C6', digital: true },
];

const FIRST_NAMES = [
  'Ana',
  'Bruno',
  'Camila',
  'Diego',
  'Fernanda',
  'Gabriel',
  'Juliana',
  'Lucas',
  'Mariana',
  'Rafael',
  'Beatriz',
  'Thiago',
];
const SURNAMES = ['Silva', 'Santos', 'Oliveira', 'Souza', 'Rodrigues', 'Ferreira', 'Alves', 'Pereira', 'Lima', 'Gomes', 'Costa', 'Ribeiro'];
const COMPANY_KINDS = ['Comércio de Alimentos Ltda', 'Serviços Digitais Ltda', 'Tecnologia S.A.', 'Distribuidora ME', 'Consultoria Eireli'];

const pick = <T>(items: readonly T[]): T => items[randomInt(items.length)];

/** Whether a tax id is a company's (CNPJ, 14 characters) rather than a person's (CPF, 11 digits). */
const isCompany = (taxId: string) => taxId.length === 14;

/**
 * The sender as the simulated network announces it: the fields the sandbox caller gave (already
 * validated), and realistic valid values for the others. Most Pix come from people, so a missing tax id
 * is a generated CPF three times out of four, else a generated CNPJ; the name, account type and branch
 * follow from it and from the bank.
 */
export function completeSender(given: Partial<SenderDetails>): SenderDetails {
  const taxId = given.sender_tax_id ?? (randomInt(4) === 0 ? generateCnpj() : generateCpf());
  const bank = given.sender_bank_code ? PAYER_BANKS.find((b) => b.ispb === given.sender_bank_code) : pick(PAYER_BANKS);
  const digital = bank?.digital ?? false;
  const company = isCompany(taxId);
  return {
    sender_name:
      given.sender_name ??
      (company ? `${pick(SURNAMES)} ${pick(COMPANY_KINDS)}` : `${pick(FIRST_NAMES)} ${pick(SURNAMES)} ${pick(SURNAMES)}`),
    sender_tax_id: taxId,
    // 5 to 9 digits, the last one being the account's check digit (the SPI carries it without a dash).
    sender_account_number: given.sender_account_number ?? String(randomInt(10_000, 1_000_000_000)),
    sender_account_type: given.sender_account_type ?? (digital ? 'payment' : company ? 'checking' : pick(['checking', 'savings'] as const)),
    sender_bank_code: given.sender_bank_code ?? bank?.ispb ?? PAYER_BANKS[0].ispb,
    sender_branch_code: given.sender_branch_code ?? (digital ? '0001' : String(randomInt(1, 10_000)).padStart(4, '0')),
  };
}
