import { Controller } from '@nestjs/common';
import { IngestPixInflowCommand, ListPixInflowsQuery, ListUnmatchedPixInflowsQuery, RequestReply, Topics } from '@partner/contracts';
import { HandleRequest } from '@partner/kafka';
import { IngestPixInflowUseCase } from './ingest-pix-inflow.use-case';
import { ListPixInflowsUseCase } from './list-pix-inflows.use-case';
import { ListUnmatchedPixInflowsUseCase } from './list-unmatched-pix-inflows.use-case';

@Controller()
export class PixInflowsHandler {
  constructor(
    private readonly listPixInflows: ListPixInflowsUseCase,
    private readonly ingestPixInflow: IngestPixInflowUseCase,
    private readonly listUnmatched: ListUnmatchedPixInflowsUseCase,
  ) {}

  /** A Pix provider notification (POST /provider/v2/pix/inflows): records or moves the inflow, or keeps it aside. */
  @HandleRequest(Topics.InflowsIngest)
  ingest(notification: IngestPixInflowCommand): Promise<RequestReply<typeof Topics.InflowsIngest>> {
    return this.ingestPixInflow.execute(notification);
  }

  @HandleRequest(Topics.InflowsList)
  list(query: ListPixInflowsQuery): Promise<RequestReply<typeof Topics.InflowsList>> {
    return this.listPixInflows.execute(query);
  }

  /** The operator's list of inflows no user's account matched (GET /admin/v1/unmatched-pix-inflows). */
  @HandleRequest(Topics.InflowsListUnmatched)
  unmatched(query: ListUnmatchedPixInflowsQuery): Promise<RequestReply<typeof Topics.InflowsListUnmatched>> {
    return this.listUnmatched.execute(query);
  }
}
