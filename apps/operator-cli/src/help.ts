/**
 * `npm run cli -- --help`. Written by hand for reading; operator-cli.spec.ts holds it to the command table and
 * the flags parseArgs accepts, so a command or flag added, renamed or removed without it fails there.
 */
export const HELP = `usage: npm run cli -- <command> [options]

operator API (X-Admin-Key, on the gateway's operator port: --operator, OPERATOR_URL):
  admin partner create --name NAME                   create a partner (no key yet)
  admin key create --partner ID                      issue an API key for the partner (printed once)
  admin key list --partner ID                        the partner's keys (prefix, created, last used, revoked)
  admin key revoke --partner ID --key KEY_ID         revoke a key (refused by every gateway within a second)
  admin user create --partner ID --document CPF [--name NAME]
                                                     register a user with every service (its payment account is
                                                     opened the first time; --name sets the holder's name DICT records)
  admin user backfill [--partner ID]                 register every existing user again (all partners' by default):
                                                     hands the Pix keys service each user's account (idempotent)
  admin credit --partner ID --document CPF --micros N --idempotency-key K --reference TEXT
                                                     credit the user's USDT balance (same key again: no second credit)
  admin balance --partner ID --document CPF          the user's available and held USDT micros, and BRL cents
  admin audit [--partner ID] [--operator-key KEY_ID] [--from UNIX] [--to UNIX] [--limit N] [--before CURSOR]
                                                     the audit log, newest first, filtered
  admin partner list [--limit N] [--cursor C]        partners, newest first
  admin partner show|disable|enable --partner ID     read a partner; disable it (its keys refused everywhere
                                                     within a second, data kept) or enable it again
  admin user list --partner ID [--limit N] [--cursor C]
                                                     the partner's users with their balances
  admin ledger --partner ID --document CPF [--limit N] [--cursor C]
                                                     the user's ledger, newest first (settlements with their gas)
  admin brl-ledger --partner ID --document CPF [--limit N] [--cursor C]
                                                     the user's BRL ledger, newest first (each Pix inflow credited)
  admin unmatched-inflows [--limit N] [--cursor C]   Pix inflows the provider notified for an account no user has
  admin med-cases [--status S] [--partner ID] [--limit N] [--cursor C]
                                                     MED cases, newest first: what each blocks of the user's balance
  admin med-case decide CASE_ID --decision agree|disagree|accept|reject --note TEXT [--cents N]
                    [--rejection-reason R]           decide an open MED case: docs/operations/pix-and-dict.md, "MED"
  admin notifications --partner ID --customer ID    a business customer's owner e-mails and SMS: pending, sent or
                                                     failed, attempts, next attempt, last error
  admin hot-wallets                                  each network's hot wallet: address, USDT and gas now, pending, next nonce,
                                                     signing or stopped (and why)
  admin findings [--status open|acknowledged|resolved]
                                                     the reconciliation's findings, newest first (all, or one status)
  admin finding acknowledge ID --note TEXT           someone is on it: the finding stays listed, no longer fails reconcile
  admin finding resolve ID --note TEXT               done (a nonce_ahead's wallet signs again; a nonce_taken's withdrawal
                                                     fails and its hold is released): docs/operations/payouts.md
  admin payout cancel WITHDRAWAL_ID --note TEXT      cancel the nonce its payout holds (signed, not yet mined): a 0-value
                                                     self-transfer takes it, then it is paid with a new nonce (or its
                                                     transfer is mined first and it settles): docs/operations/payouts.md
  reconcile                                          check the books against the chain now (receipts, the wallet's nonce,
                                                     its USDT transfers out); prints the run and the findings not
                                                     resolved; exit 1 while any is open or a network was not reached

screening of withdrawal destinations (operator API; docs/operations/screening.md):
  screening show                                     the lists in use: the OFAC SDN copy (source, published, loaded,
                                                     size), the token contracts' blacklist, the deny list's size
  screening update FILE [--published-at DATE] [--source TEXT]
                                                     load a new SDN copy: FILE holds one EVM address per line (# comments
                                                     allowed), DATE when the list was published (UTC; default: the file's
                                                     modification time); withdrawals not signed yet to a listed address
                                                     fail (address_blocked)
  screening deny-list [--limit N] [--cursor C]       the operator's deny list, by address
  screening deny ADDRESS --note TEXT                 refuse withdrawals to ADDRESS; those not signed yet to it fail
  screening undeny ADDRESS                           lift ADDRESS from the deny list

operator keys (straight in the database at DATABASE_URL; no gateway needed, e.g. the first key of a deployment):
  operator-key create --name WHO [--environment production|sandbox]
                                                     create an operator key (printed once; only its SHA-256 is stored)
                                                     for the gateways of that environment (default: sandbox when
                                                     SANDBOX=true, else production); other gateways refuse it;
                                                     audited
  operator-key list                                  every operator key (prefix, created, revoked)
  operator-key revoke --key KEY_ID                   revoke one (audited; every running gateway hears it and refuses the key within about a second)

dead letters (events a service parked as unprocessable; straight in the database at DATABASE_URL):
  dead-letters list [--all]                          parked ones (--all: replayed ones too), one JSON line each
  dead-letters show ID                               one of them with its key, headers and value
  dead-letters replay ID... | --all                  run them through their service's handler again (after a fix
                                                     of the row's value if it needs one); waits and prints the outcome

sandbox (SANDBOX=true only):
  partner create [--name NAME]                       create a sandbox partner (admin key); prints its API key
  user credit --document CPF --micros N [--name NAME]
                                                     create a user with N USDT micros, or credit an existing one
  withdraw --document CPF --micros N --address 0x..  [--network MATIC|ETH] [--fee LOW|MEDIUM|HIGH] [--key UUID]
  events [--delivered true|false] [--limit N]        list the partner's events (default: not yet delivered)
  ack EVENT_ID...                                    mark events delivered
  notifications sent                                 every e-mail and SMS the local sinks received (npm start's;
                                                     NOTIFY_SINK_URL, default http://127.0.0.1:8025; = npm run notify -- list)

partner API (X-API-Key):
  withdraw, events, ack                              as above

options: --gateway URL  --operator URL  --admin-key KEY  --api-key KEY  -h, --help`;
