import { generateCnpj } from '@brazilian-utils/brazilian-utils';
import { BUSINESS_CUSTOMER_EXAMPLE, CreateBusinessCustomerCommand, PartnerId } from '@partner/contracts';
import { loadConfig } from '@partner/config';
import { newUuid, testPartnerId } from '@partner/testing';
import { validateContract } from '@partner/validation';
import { Database, UnitOfWork } from '@partner/db';
import { DB_SCHEMA } from '../database/db-schema';
import { CustomersConfig } from '../config/customers.config';
import { OwnerNotificationRepository } from '../notifications/owner-notification.repository';
import { CreateBusinessCustomerUseCase } from './create-business-customer.use-case';
import { CustomerRepository } from './customer.repository';
import { GetBusinessCustomerUseCase } from './get-business-customer.use-case';

// Integration: the real customers schema in PostgreSQL (npm test migrates it). Each test uses a partner of its own.
const config = loadConfig(CustomersConfig);
const db = new Database(config, DB_SCHEMA);
const customers = new CustomerRepository(db);
const create = new CreateBusinessCustomerUseCase(
  new UnitOfWork(db, { wake: () => undefined }),
  customers,
  new OwnerNotificationRepository(db),
  config,
);
const get = new GetBusinessCustomerUseCase(customers);

/** Registers `body` (with a CNPJ of its own) for the partner, as the handler would after validating it. */
async function register(partnerId: PartnerId, body: Record<string, unknown>): Promise<string> {
  const checked = validateContract(CreateBusinessCustomerCommand, { ...body, partner_id: partnerId });
  if (!checked.ok) throw new Error(`invalid test command: ${checked.error.message}`);
  const reply = await create.execute(checked.value);
  if (!reply.ok) throw new Error(`registration refused: ${reply.error.code}`);
  return reply.data.id;
}

const exampleBody = () =>
  ({ ...structuredClone(BUSINESS_CUSTOMER_EXAMPLE), cnpj: generateCnpj({ version: 2 }) }) as Record<string, unknown>;

afterAll(() => db.close());

describe('GetBusinessCustomerUseCase (PostgreSQL)', () => {
  it('answers the body as the partner sent it, with its id and registration time in Unix seconds', async () => {
    const partnerId = testPartnerId();
    const body = exampleBody();
    const before = Math.floor(Date.now() / 1000);
    const id = await register(partnerId, body);
    const reply = await get.execute({ partner_id: partnerId, id });
    expect(reply).toEqual({ ok: true, data: { id, ...body, created_at: expect.any(Number) } });
    const createdAt = reply.ok ? reply.data.created_at : NaN;
    expect(Number.isInteger(createdAt)).toBe(true);
    expect(createdAt).toBeGreaterThanOrEqual(before);
    expect(createdAt).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
  });

  it('leaves out what the partner left out and keeps what it sent as null', async () => {
    const partnerId = testPartnerId();
    const { metadata: _metadata, config: _config, ...body } = exampleBody();
    const sent = { ...body, trade_name: null };
    const id = await register(partnerId, sent);
    const reply = await get.execute({ partner_id: partnerId, id });
    expect(reply).toEqual({ ok: true, data: { id, ...sent, created_at: expect.any(Number) } });
    const data = reply.ok ? reply.data : {};
    expect(['metadata', 'config'].filter((key) => key in data)).toEqual([]);
  });

  it("is not_found for an unknown id and for another partner's customer", async () => {
    const partnerId = testPartnerId();
    const id = await register(partnerId, exampleBody());
    const notFound = { ok: false, error: { code: 'not_found', message: expect.any(String) } };
    expect(await get.execute({ partner_id: testPartnerId(), id })).toEqual(notFound);
    expect(await get.execute({ partner_id: partnerId, id: newUuid() })).toEqual(notFound);
  });
});
