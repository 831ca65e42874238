import { IsIn, IsOptional, Matches, registerDecorator, ValidateIf, ValidationArguments } from 'class-validator';
import { Flag, IntInRange, PollIntervalMs, ServiceConfig } from '@partner/config';
import { SERVICE_CATALOGUE } from '@partner/contracts';

/**
 * Chain ids of public mainnets, where a transfer pays real money: refused with SANDBOX=true, whose
 * /sandbox/v1 helpers credit balances out of nothing (chainlist.org's ids).
 */
export const MAINNET_CHAIN_IDS: ReadonlyMap<number, string> = new Map([
  [1, 'Ethereum mainnet'],
  [10, 'OP Mainnet'],
  [56, 'BNB Smart Chain'],
  [100, 'Gnosis'],
  [137, 'Polygon PoS'],
  [324, 'zkSync Era'],
  [1101, 'Polygon zkEVM'],
  [8453, 'Base'],
  [42161, 'Arbitrum One'],
  [43114, 'Avalanche C-Chain'],
  [59144, 'Linea'],
]);

/** Why `value` (a chain id setting) is refused with this configuration's SANDBOX, or undefined. */
const sandboxChainProblem = (name: string, value: unknown, config: WithdrawalsConfig): string | undefined => {
  const mainnet = typeof value === 'number' ? MAINNET_CHAIN_IDS.get(value) : undefined;
  return config.SANDBOX && mainnet
    ? `SANDBOX=true refuses ${name}=${String(value)} (${mainnet}): the sandbox credits balances out of nothing, which would pay real USDT; set SANDBOX=false or a test chain's id`
    : undefined;
};

/** Why `value` (an RPC or signer URL setting) is refused under this configuration's NODE_ENV, or undefined. */
const plainHttpProblem = (name: string, value: unknown, config: WithdrawalsConfig): string | undefined =>
  config.NODE_ENV === 'production' && typeof value === 'string' && !value.startsWith('https://')
    ? `${name} must be an https:// URL with NODE_ENV=production (plain http carries the transactions and any API key in clear)`
    : undefined;

/** A property check against the rest of the configuration, whose message comes from `problem`. */
function Refuses(problem: (name: string, value: unknown, config: WithdrawalsConfig) => string | undefined): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'refuses',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: (a: ValidationArguments) => problem(a.property, a.value, a.object as WithdrawalsConfig) ?? '' },
      validator: {
        validate: (value: unknown, a?: ValidationArguments) =>
          !a || problem(a.property, value, a.object as WithdrawalsConfig) === undefined,
      },
    });
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** One address or several, comma-separated. */
const ADDRESSES = /^0x[0-9a-fA-F]{40}(,0x[0-9a-fA-F]{40})*$/;
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

  /**
   * The gateway's SANDBOX, given to this service too: a sandbox credits balances out of nothing, so it
   * must never pay on a mainnet (MAINNET_CHAIN_IDS are refused at start).
   */
  @Flag()
  SANDBOX: boolean = false;

  /** JSON-RPC endpoint of each network's node (a provider's URL may carry its API key: never logged). */
  @Matches(/^https?:\/\/\S+$/, { message: 'CHAIN_RPC_URL_ETH must be an http(s) URL' })
  @Refuses(plainHttpProblem)
  CHAIN_RPC_URL_ETH: string = 'http://127.0.0.1:8545';
  @Matches(/^https?:\/\/\S+$/, { message: 'CHAIN_RPC_URL_MATIC must be an http(s) URL' })
  @Refuses(plainHttpProblem)
  CHAIN_RPC_URL_MATIC: string = 'http://127.0.0.1:8546';

  /**
   * A second node per network (optional): then a withdrawal settles or fails only when both nodes tell the
   * same receipt and both hold its block final; broadcasts go to both.
   */
  @IsOptional()
  @Matches(/^https?:\/\/\S+$/, { message: 'CHAIN_RPC_URL_2_ETH must be an http(s) URL' })
  @Refuses(plainHttpProblem)
  CHAIN_RPC_URL_2_ETH?: string;
  @IsOptional()
  @Matches(/^https?:\/\/\S+$/, { message: 'CHAIN_RPC_URL_2_MATIC must be an http(s) URL' })
  @Refuses(plainHttpProblem)
  CHAIN_RPC_URL_2_MATIC?: string;

  /**
   * A node whose newest block is older than this many seconds is behind and is not asked: the network's
   * round waits (Ethereum makes a block every 12 s, Polygon PoS every 2 s).
   */
  @IntInRange(1, 86_400)
  CHAIN_MAX_HEAD_AGE_S_ETH: number = 180;
  @IntInRange(1, 86_400)
  CHAIN_MAX_HEAD_AGE_S_MATIC: number = 60;

  /** The chain id each node must serve (1: Ethereum mainnet; 137: Polygon PoS). Checked at start. */
  @IntInRange(1, 2_147_483_647)
  @Refuses(sandboxChainProblem)
  CHAIN_ID_ETH: number = 1;
  @IntInRange(1, 2_147_483_647)
  @Refuses(sandboxChainProblem)
  CHAIN_ID_MATIC: number = 137;

  /** The USDT contract per network (Tether's own on each mainnet; 6 decimals, checked at start). */
  @Matches(ADDRESS, { message: 'USDT_CONTRACT_ETH must be a 0x-prefixed 20-byte address' })
  USDT_CONTRACT_ETH: string = '0xdAC17F958D2ee523a2206206994597C13D831ec7';
  @Matches(ADDRESS, { message: 'USDT_CONTRACT_MATIC must be a 0x-prefixed 20-byte address' })
  USDT_CONTRACT_MATIC: string = '0xc2132D05D31c914a87C6611C10748AEb04B58e8F';

  /**
   * How the hot wallet signs: `key-file` (HOT_WALLET_KEY_FILE, a Compose secret in production) or
   * `remote` (a signer serving eth_signTransaction over JSON-RPC, such as Web3Signer, at REMOTE_SIGNER_URL
   * for the accounts REMOTE_SIGNER_ADDRESS). Each key (or account) is a wallet of the pool, and pays on
   * both networks: one nonce lane per network and wallet.
   */
  @IsIn(['key-file', 'remote'])
  HOT_WALLET_SIGNER: 'key-file' | 'remote' = 'key-file';

  /**
   * The files holding the pool's private keys (0x + 64 hex digits each), comma-separated: one file per
   * wallet. Their content is never logged.
   */
  @ValidateIf((c: WithdrawalsConfig) => c.HOT_WALLET_SIGNER === 'key-file')
  @Matches(/^[^,\s]+(,[^,\s]+)*$/, {
    message: 'HOT_WALLET_KEY_FILE must name the files holding the hot wallet keys, comma-separated (HOT_WALLET_SIGNER=key-file)',
  })
  HOT_WALLET_KEY_FILE?: string;

  @ValidateIf((c: WithdrawalsConfig) => c.HOT_WALLET_SIGNER === 'remote')
  @Matches(/^https?:\/\/\S+$/, { message: 'REMOTE_SIGNER_URL must be an http(s) URL (HOT_WALLET_SIGNER=remote)' })
  @Refuses(plainHttpProblem)
  REMOTE_SIGNER_URL?: string;

  @ValidateIf((c: WithdrawalsConfig) => c.HOT_WALLET_SIGNER === 'remote')
  @Matches(ADDRESSES, {
    message: 'REMOTE_SIGNER_ADDRESS must be the signing accounts, 0x-prefixed addresses, comma-separated (HOT_WALLET_SIGNER=remote)',
  })
  REMOTE_SIGNER_ADDRESS?: string;

  /**
   * Wallets of the pool given no new withdrawals (comma-separated addresses): what they signed is still
   * followed to its end (broadcast, replaced, cancelled if asked). Drop a key from the pool once its wallet
   * shows nothing in flight.
   */
  @IsOptional()
  @Matches(ADDRESSES, { message: 'HOT_WALLETS_RETIRED must be 0x-prefixed addresses, comma-separated' })
  HOT_WALLETS_RETIRED?: string;

  /** Transactions signed and not yet mined per wallet and network at most (geth keeps 16 executable slots per sender). */
  @IntInRange(1, 1_000)
  CHAIN_MAX_IN_FLIGHT_PER_WALLET: number = 16;

  /** Transfers of one wallet mined as reverts in a row that stop it (a reconciliation finding; resolved by the operator). */
  @IntInRange(1, 1_000)
  CHAIN_REVERTS_TO_STOP: number = 3;

  /** A network's own remote signer, when the signer serves one chain id per instance (Web3Signer). */
  @IsOptional()
  @Matches(/^https?:\/\/\S+$/, { message: 'REMOTE_SIGNER_URL_ETH must be an http(s) URL' })
  @Refuses(plainHttpProblem)
  REMOTE_SIGNER_URL_ETH?: string;
  @IsOptional()
  @Matches(/^https?:\/\/\S+$/, { message: 'REMOTE_SIGNER_URL_MATIC must be an http(s) URL' })
  @Refuses(plainHttpProblem)
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

  /**
   * A payout worker: this instance consumes no command and answers no query; it runs the payout rounds
   * (unless PAYOUTS_ENABLED=false, which stops them: reconciliation goes on) and reconciliation, so payouts
   * scale and are throttled apart from the request path (ADR 0031). The instances that take the requests then
   * run with PAYOUTS_ENABLED=false.
   */
  @Flag()
  PAYOUTS_ONLY: boolean = false;
}
