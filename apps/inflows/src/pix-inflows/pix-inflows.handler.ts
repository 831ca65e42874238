import { Controller } from '@nestjs/common';
import { ListPixInflowsQuery, ok, RequestReply, Topics, UpsertUserCommand } from '@partner/contracts';
import { HandleRequest } from '@partner/kafka';

/** Answers Pix inflow listings; inflows are recorded from issue #3 on, so the list is empty until then. */
@Controller()
export class PixInflowsHandler {
  @HandleRequest(Topics.InflowsList)
  async list(_query: ListPixInflowsQuery): Promise<RequestReply<typeof Topics.InflowsList>> {
    return ok({ pix_in: [] });
  }

  /** Placeholder until users are stored here (issue #3). */
  @HandleRequest(Topics.InflowsUpsertUser)
  async upsertUser(_command: UpsertUserCommand): Promise<RequestReply<typeof Topics.InflowsUpsertUser>> {
    return ok({ created: false });
  }
}
