import { Controller } from '@nestjs/common';
import { IngestPixInflowCommand, ListPixInflowsQuery, RequestReply, Topics } from '@partner/contracts';
import { HandleRequest } from '@partner/kafka';
import { IngestPixInflowUseCase } from './ingest-pix-inflow.use-case';
import { ListPixInflowsUseCase } from './list-pix-inflows.use-case';

@Controller()
export class PixInflowsHandler {
  constructor(
    private readonly listPixInflows: ListPixInflowsUseCase,
    private readonly ingestPixInflow: IngestPixInflowUseCase,
  ) {}

  /** A Pix provider notification (POST /provider/v1/pix/inflows): records or moves the inflow. */
  @HandleRequest(Topics.InflowsIngest)
  ingest(notification: IngestPixInflowCommand): Promise<RequestReply<typeof Topics.InflowsIngest>> {
    return this.ingestPixInflow.execute(notification);
  }

  @HandleRequest(Topics.InflowsList)
  list(query: ListPixInflowsQuery): Promise<RequestReply<typeof Topics.InflowsList>> {
    return this.listPixInflows.execute(query);
  }
}
