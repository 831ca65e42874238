import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** GET /healthz: the process is up. */
export class LivenessReport {
  @ApiProperty({ enum: ['ok'] })
  status!: 'ok';
}

/** One dependency in the readiness report (@nestjs/terminus' shape). */
export class DependencyStatus {
  @ApiProperty({ enum: ['up', 'down'] })
  status!: 'up' | 'down';

  @ApiPropertyOptional({ description: 'Why it is down' })
  message?: string;
}

const dependencies = {
  type: 'object',
  additionalProperties: { $ref: '#/components/schemas/DependencyStatus' },
  description: 'By dependency: kafka, database, and each service (withdrawals, events, pix-keys, customers, inflows)',
} as const;

/** GET /readyz: the broker, the gateway's database and every service, as @nestjs/terminus reports them. */
export class ReadinessReport {
  @ApiProperty({ enum: ['ok', 'error', 'shutting_down'] })
  status!: string;

  @ApiPropertyOptional({ ...dependencies, description: `Those up. ${dependencies.description}` })
  info?: Record<string, DependencyStatus>;

  @ApiPropertyOptional({ ...dependencies, description: 'Those down' })
  error?: Record<string, DependencyStatus>;

  @ApiProperty({ ...dependencies, description: 'All of them' })
  details!: Record<string, DependencyStatus>;
}
