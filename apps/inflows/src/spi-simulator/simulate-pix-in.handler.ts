import { Controller } from '@nestjs/common';
import { RequestReply, SimulatePixInCommand, Topics } from '@partner/contracts';
import { HandleRequest } from '@partner/kafka';
import { SimulatePixInUseCase } from './simulate-pix-in.use-case';

@Controller()
export class SimulatePixInHandler {
  constructor(private readonly simulatePixIn: SimulatePixInUseCase) {}

  @HandleRequest(Topics.InflowsSimulatePixIn)
  handle(command: SimulatePixInCommand): Promise<RequestReply<typeof Topics.InflowsSimulatePixIn>> {
    return this.simulatePixIn.execute(command);
  }
}
