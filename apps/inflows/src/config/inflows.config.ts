import { Matches } from 'class-validator';
import { Flag, OperatorIspb, PLACEHOLDER_ISPB, PollIntervalMs, ServiceConfig, SimulatedDelayMs } from '@partner/config';
import { SERVICE_CATALOGUE } from '@partner/contracts';

export class InflowsConfig extends ServiceConfig {
  override HEALTH_PORT: number = SERVICE_CATALOGUE.inflows.healthPort;

  /**
   * The gateway's SANDBOX, given to this service too: only then is the simulated payment network (the
   * sandbox's Pix payments, SpiSimulatorModule) loaded, since it credits BRL balances out of nothing.
   */
  @Flag()
  SANDBOX: boolean = false;

  /** Simulated settlement: how long an inflow waits in each step (processing, approved, success) before it moves on. */
  @SimulatedDelayMs()
  PIX_IN_STEP_DELAY_MS: number = 1_000;

  /** How often the simulated settlement looks for inflows to move. */
  @PollIntervalMs()
  PIX_IN_TICK_MS: number = 250;

  /** The counterparties are test servers (the Compose overlay of local chains and the test DICT): the placeholder ISPB is allowed. */
  @Flag()
  LOCAL_COUNTERPARTIES: boolean = false;

  /**
   * The operator's ISPB (8 digits): the institution where users' payment accounts are, as DICT and the SPI
   * name it. A Pix the provider notifies for another ISPB reaches no user (refused). Not stored with the
   * accounts: changing it moves every account. The default is no institution's: production refuses it.
   */
  @OperatorIspb('OPERATOR_ISPB')
  OPERATOR_ISPB: string = PLACEHOLDER_ISPB;

  /** The branch (agência, 4 digits) new accounts are opened at; each account keeps the branch it was opened at. */
  @Matches(/^\d{4}$/, { message: 'ACCOUNT_BRANCH must be 4 digits' })
  ACCOUNT_BRANCH: string = '0001';
}
