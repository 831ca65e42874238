import { ApiProperty } from '@nestjs/swagger';

/** GET /healthz: the process is up. */
export class LivenessReport {
  @ApiProperty({ enum: ['ok'] })
  status!: 'ok';
}
