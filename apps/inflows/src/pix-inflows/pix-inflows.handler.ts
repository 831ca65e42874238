import { Controller } from '@nestjs/common';
import { ListPixInflowsQuery, ok, RequestReply, Topics } from '@partner/contracts';
import { HandleRequest } from '@partner/kafka';

/** Answers Pix inflow listings; inflows are recorded from issue #3 on, so the list is empty until then. */
@Controller()
export class PixInflowsHandler {
  @HandleRequest(Topics.InflowsList)
  async list(_query: ListPixInflowsQuery): Promise<RequestReply<typeof Topics.InflowsList>> {
    return ok({ pix_in: [] });
  }
}
