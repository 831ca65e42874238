import { Topics } from '@partner/contracts';
import { answer, requestHandlers } from '@partner/kafka';
import { IngestPixInflowUseCase } from './ingest-pix-inflow.use-case';
import { ListPixInflowsUseCase } from './list-pix-inflows.use-case';
import { ListUnmatchedPixInflowsUseCase } from './list-unmatched-pix-inflows.use-case';

export const PixInflowsHandler = requestHandlers('PixInflowsHandler', [
  // A Pix provider notification (POST /provider/v2/pix/inflows): records or moves the inflow, or keeps it aside.
  answer(Topics.InflowsIngest, IngestPixInflowUseCase),
  answer(Topics.InflowsList, ListPixInflowsUseCase),
  // The operator's list of inflows no user's account matched (GET /admin/v1/unmatched-pix-inflows).
  answer(Topics.InflowsListUnmatched, ListUnmatchedPixInflowsUseCase),
]);
