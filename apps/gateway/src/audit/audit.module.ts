import { Module } from '@nestjs/common';
import { AuditLogController } from './audit-log.controller';
import { AuditLogRepository } from './audit-log.repository';
import { ListAuditLogUseCase } from './list-audit-log.use-case';

/** The operator API's audit log: the reading route here; the writing hook is installed by createGatewayApp (auditOperatorCalls). */
@Module({ controllers: [AuditLogController], providers: [AuditLogRepository, ListAuditLogUseCase], exports: [AuditLogRepository] })
export class AuditModule {}
