import { IsIn, IsOptional, IsString, Matches, ValidateIf } from 'class-validator';
import { Flag, IntInRange, PollIntervalMs, ServiceConfig } from '@partner/config';
import { SERVICE_CATALOGUE } from '@partner/contracts';

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** `finalized` (the node's finalized block tag) or a number of confirmations, 1 to 10,000. */
const FINALITY = /^(finalized|[1-9][0-9]{0,3}|10000)$/;
/** Gwei with up to 9 decimals (1 wei), e.g. `0.05`, `30`. */
const GWEI = /^\d{1,12}(\.\d{1,9})?$/;
const gwei = (name: string) => ({ message: `${name} must be a number of gwei (up to 9 decimals), e.g. 30 or 0.05` });

/**
 * The withdrawals service's settings. The chain settings come per network (`_ETH`, `_MATIC`); their
 * defaults are Ethereum's and Polygon PoS's mainnets, except the node URLs, which default to the local
 * nodes `npm start` runs: a mainnet chain id against a local node then refuses to start (ChainGuard).
 */
export class WithdrawalsConfig extends ServiceConfig {
  override HEALTH_PORT: number = SERVICE_CATALOGUE.withdrawals.healthPort;

  /** JSON-RPC endpoint of each network's node (a provider's URL may carry its API key: never logged). */
  @Matches(/^https?:\/\/\S+$/, { message: 'CHAIN_RPC_URL_ETH must be an http(s) URL' })
  CHAIN_RPC_URL_ETH: string = 'http://127.0.0.1:8545';
  @Matches(/^https?:\/\/\S+$/, { message: 'CHAIN_RPC_URL_MATIC must be an http(s) URL' })
  CHAIN_RPC_URL_MATIC: string = 'http://127.0.0.1:8546';

  /** The chain id each node must serve (1: Ethereum mainnet; 137: Polygon PoS). Checked at start. */
  @IntInRange(1, 2_147_483_647)
  CHAIN_ID_ETH: number = 1;
  @IntInRange(1, 2_147_483_647)
  CHAIN_ID_MATIC: number = 137;

  /** The USDT contract per network (Tether's own on each mainnet; 6 decimals, checked at start). */
  @Matches(ADDRESS, { message: 'USDT_CONTRACT_ETH must be a 0x-prefixed 20-byte address' })
  USDT_CONTRACT_ETH: string = '0xdAC17F958D2ee523a2206206994597C13D831ec7';
  @Matches(ADDRESS, { message: 'USDT_CONTRACT_MATIC must be a 0x-prefixed 20-byte address' })
  USDT_CONTRACT_MATIC: string = '0xc2132D05D31c914a87C6611C10748AEb04B58e8F';

  /**
   * How the hot wallet signs: `key-file` (HOT_WALLET_KEY_FILE, a Compose secret in production) or
   * `remote` (a signer serving eth_signTransaction over JSON-RPC, such as Web3Signer, at REMOTE_SIGNER_URL
   * for the account REMOTE_SIGNER_ADDRESS). One wallet pays on both networks.
   */
  @IsIn(['key-file', 'remote'])
  HOT_WALLET_SIGNER: 'key-file' | 'remote' = 'key-file';

  /** A file holding the hot wallet's private key (0x + 64 hex digits). Its content is never logged. */
  @ValidateIf((c: WithdrawalsConfig) => c.HOT_WALLET_SIGNER === 'key-file')
  @IsString({ message: 'HOT_WALLET_KEY_FILE must name the file holding the hot wallet key (HOT_WALLET_SIGNER=key-file)' })
  HOT_WALLET_KEY_FILE?: string;

  @ValidateIf((c: WithdrawalsConfig) => c.HOT_WALLET_SIGNER === 'remote')
  @Matches(/^https?:\/\/\S+$/, { message: 'REMOTE_SIGNER_URL must be an http(s) URL (HOT_WALLET_SIGNER=remote)' })
  REMOTE_SIGNER_URL?: string;

  @ValidateIf((c: WithdrawalsConfig) => c.HOT_WALLET_SIGNER === 'remote')
  @Matches(ADDRESS, { message: 'REMOTE_SIGNER_ADDRESS must be the signing account (HOT_WALLET_SIGNER=remote)' })
  REMOTE_SIGNER_ADDRESS?: string;

  /** A network's own remote signer, when the signer serves one chain id per instance (Web3Signer). */
  @IsOptional()
  @Matches(/^https?:\/\/\S+$/, { message: 'REMOTE_SIGNER_URL_ETH must be an http(s) URL' })
  REMOTE_SIGNER_URL_ETH?: string;
  @IsOptional()
  @Matches(/^https?:\/\/\S+$/, { message: 'REMOTE_SIGNER_URL_MATIC must be an http(s) URL' })
  REMOTE_SIGNER_URL_MATIC?: string;

  /**
   * When a block counts as final: `finalized` (the node's finalized tag: Ethereum's Casper FFG
   * checkpoint, about 13 minutes; Polygon PoS's milestones, seconds) or N confirmations.
   */
  @Matches(FINALITY, { message: 'CHAIN_FINALITY_ETH must be finalized or a number of confirmations' })
  CHAIN_FINALITY_ETH: string = 'finalized';
  @Matches(FINALITY, { message: 'CHAIN_FINALITY_MATIC must be finalized or a number of confirmations' })
  CHAIN_FINALITY_MATIC: string = 'finalized';

  /** The most a payout may pay per gas (maxFeePerGas), in gwei: above it, withdrawals wait. */
  @Matches(GWEI, gwei('CHAIN_MAX_FEE_GWEI_ETH'))
  CHAIN_MAX_FEE_GWEI_ETH: string = '100';
  @Matches(GWEI, gwei('CHAIN_MAX_FEE_GWEI_MATIC'))
  CHAIN_MAX_FEE_GWEI_MATIC: string = '1500';

  /** The least priority fee offered, in gwei (Polygon PoS's validators take nothing under 25 gwei). */
  @Matches(GWEI, gwei('CHAIN_MIN_PRIORITY_FEE_GWEI_ETH'))
  CHAIN_MIN_PRIORITY_FEE_GWEI_ETH: string = '0.05';
  @Matches(GWEI, gwei('CHAIN_MIN_PRIORITY_FEE_GWEI_MATIC'))
  CHAIN_MIN_PRIORITY_FEE_GWEI_MATIC: string = '30';

  /** Gas limit of a USDT transfer (Ethereum's USDT uses 41-63k; the rest is left unused and not paid). */
  @IntInRange(21_000, 1_000_000)
  CHAIN_GAS_LIMIT: number = 100_000;

  /** A transaction not mined this long after its broadcast is replaced (same nonce, fees raised). */
  @IntInRange(1_000, 86_400_000)
  CHAIN_REPLACE_AFTER_MS_ETH: number = 180_000;
  @IntInRange(1_000, 86_400_000)
  CHAIN_REPLACE_AFTER_MS_MATIC: number = 60_000;

  /** How often each network's payout round runs (sign, broadcast, confirm). */
  @PollIntervalMs()
  CHAIN_POLL_MS: number = 1_000;

  /** Each JSON-RPC call's deadline: a slow node counts as down for this round. */
  @IntInRange(100, 120_000)
  CHAIN_RPC_TIMEOUT_MS: number = 10_000;

  /** Withdrawals signed per round and network. */
  @IntInRange(1, 1_000)
  CHAIN_BATCH: number = 200;

  /** Below these balances the hot wallet is reported low (metric hot_wallet_low, a warning line). */
  @IntInRange(0, Number.MAX_SAFE_INTEGER)
  HOT_WALLET_LOW_USDT_MICROS: number = 10_000_000_000;
  @Matches(GWEI, gwei('HOT_WALLET_LOW_NATIVE_GWEI'))
  HOT_WALLET_LOW_NATIVE_GWEI: string = '100000000';

  /** How often settled withdrawals are checked against the chain (reconciliation). */
  @IntInRange(1_000, 86_400_000)
  RECONCILE_INTERVAL_MS: number = 300_000;

  /** The most blocks one eth_getLogs asks for when the reconciliation reads the wallet's transfers out (providers cap it). */
  @IntInRange(1, 100_000)
  RECONCILE_LOGS_MAX_BLOCKS: number = 2_000;

  /**
   * Where the first scan of a wallet's transfers out starts when its registration block is unknown (a wallet
   * registered before the scan existed); a wallet registered since starts at its registration block.
   */
  @IntInRange(0, Number.MAX_SAFE_INTEGER)
  RECONCILE_FROM_BLOCK_ETH: number = 0;
  @IntInRange(0, Number.MAX_SAFE_INTEGER)
  RECONCILE_FROM_BLOCK_MATIC: number = 0;

  /**
   * Fault injection for the chaos run only: the share of signing rounds after which the process kills
   * itself (SIGKILL) between the commit of the signed transactions and their broadcast. Refused in production.
   */
  @IsOptional()
  @Matches(/^(0(\.\d+)?|1)$/, { message: 'PAYOUT_CRASH_AFTER_SIGN_RATE must be a share from 0 to 1' })
  PAYOUT_CRASH_AFTER_SIGN_RATE?: string;

  /** Whether this instance runs the payout rounds (every instance may: one sender per wallet at a time). */
  @Flag()
  PAYOUTS_ENABLED: boolean = true;
}
