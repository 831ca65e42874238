import { Injectable } from '@nestjs/common';
import { CreateBusinessCustomerRequest } from '@partner/contracts';
import { Prisma } from '../generated/prisma/client';
import { PrismaService, Tx } from '../prisma/prisma.service';

/** The registration as validated, in plain JSON (what is stored in `body`). */
export type BusinessCustomerBody = CreateBusinessCustomerRequest;

export interface Customer {
  id: string;
  partnerId: string;
  cnpj: string;
  legalName: string;
  externalId: string | null;
  body: BusinessCustomerBody;
  createdAt: Date;
}

export class DuplicateCnpjError extends Error {}

/** The Customer aggregate's storage. Every method is scoped by partner. */
@Injectable()
export class CustomerRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Inserts the customer; the unique (partner, CNPJ) index turns a second registration, even a concurrent one, into DuplicateCnpjError. */
  async create(tx: Tx, partnerId: string, id: string, body: BusinessCustomerBody): Promise<Customer> {
    try {
      const row = await tx.customer.create({
        data: {
          id,
          partnerId,
          cnpj: body.cnpj,
          legalName: body.legal_name,
          externalId: body.metadata?.external_id ?? null,
          body: body as unknown as Prisma.InputJsonValue,
        },
      });
      return { ...row, body: row.body as unknown as BusinessCustomerBody };
    } catch (error) {
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') throw new DuplicateCnpjError(body.cnpj);
      throw error;
    }
  }

  async findByCnpj(partnerId: string, cnpj: string): Promise<Customer | null> {
    const row = await this.prisma.customer.findUnique({ where: { partnerId_cnpj: { partnerId, cnpj } } });
    return row && { ...row, body: row.body as unknown as BusinessCustomerBody };
  }
}
