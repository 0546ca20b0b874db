// `npx tsx tests/bench/indexer.ts`: the deposit indexer's cost at mainnet density (DECISIONS
// §8.2), alone (a few minutes), written into BENCHMARKS.md in place of its own section; with
// `--section-only` it only prints the section (how `npm run bench` takes it, in a process of its
// own, since the indexer's modules read their settings once). Figures, not assertions.
//
// On a DynamoDB Local and an anvil of its own: 100 catalog tokens (TransferEmitter, listed), and a
// stream of blocks carrying 300 `Transfer` logs each across them, 3 of which go to known wallets.
// One indexer run follows a chain minute: 5 blocks (Ethereum, a block each 12 s) or 80 blocks
// (BNB Chain, a block each 0.75 s), for 1,000 and then 100,000 known wallets. Then a block with a
// burst of 13,000 logs of one catalog token: the run that passes it, and what it cost.
import { subscribe, unsubscribe } from 'node:diagnostics_channel'
import { randomBytes } from 'node:crypto'
import { cpus } from 'node:os'
import {
  type Address,
  createTestClient,
  getAddress,
  http,
  parseEther,
  publicActions,
  toHex,
  walletActions,
} from 'viem'
import { privateKeyToAddress } from 'viem/accounts'
import { startAnvil } from '../../lib/local/anvil'
import { provenanceNow, section, writeSections } from './benchmarksFile'
import { DEVNET_CHAIN_IDS } from '../../lib/local/deployDex'
import { startDynamoLocal } from '../../lib/local/dynamoLocal'
import { findFreePort } from '../../lib/local/findFreePort'
import { createTable } from '../../lib/local/localTable'
import {
  loadTransferEmitter,
  loadTransferStream,
  transferEmitterAbi,
  transferStreamAbi,
} from '../support/transferEmitter'

const CATALOG_TOKENS = 100
const LOGS_PER_BLOCK = 300
const KNOWN_PER_BLOCK = 3
const BURST_LOGS = 13_000n
const WALLET_COUNTS = [1_000, 100_000] as const
const CHAINS = [
  { chain: 'Ethereum', blockSeconds: 12 },
  { chain: 'BNB Chain', blockSeconds: 0.75 },
] as const
const SECTION_TITLE = '## The deposit indexer at mainnet density'

export interface IndexerRunFigure {
  case: string
  wallets: number
  blocks: number
  ms: number
  rpcCalls: number
  roundTrips: number
  bytesReceived: number
  bytesSent: number
  dynamoCalls: number
  dynamoWrites: number
  recorded: number
  runs: number
  methods: string
}

// Modules are imported only after the settings are in process.env.
async function load<Module>(path: string): Promise<Module> {
  return (await import(path)) as Module
}

const randomAddress = (): Address => privateKeyToAddress(toHex(randomBytes(32)))

const WRITE_COMMANDS = [
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'TransactWriteItems',
  'BatchWriteItem',
]

export async function measureIndexer(): Promise<IndexerRunFigure[]> {
  const dynamo = await startDynamoLocal({ port: await findFreePort() })
  const anvil = await startAnvil({
    port: await findFreePort(),
    chainId: DEVNET_CHAIN_IDS.ethereum,
  })
  try {
    const placeholder = getAddress(`0x${'11'.repeat(20)}`)
    const chainEnv = (prefix: string, chainId: number) => ({
      [`${prefix}_CHAIN_ID`]: String(chainId),
      [`${prefix}_RPC_URL`]: anvil.rpcUrl,
      [`${prefix}_ROUTER`]: placeholder,
      [`${prefix}_FACTORY`]: placeholder,
      [`${prefix}_WRAPPED_NATIVE`]: placeholder,
      [`${prefix}_USD_STABLECOIN`]: placeholder,
    })
    Object.assign(process.env, {
      STAGE: 'local',
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      TABLE_NAME: 'indexer-bench',
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      JWT_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'SILENT',
      ...chainEnv('ETHEREUM', DEVNET_CHAIN_IDS.ethereum),
      ...chainEnv('ALTCHAIN', DEVNET_CHAIN_IDS.altchain),
    })
    await createTable(dynamo.endpoint, 'indexer-bench')
    return await measureOn(anvil.rpcUrl)
  } finally {
    await anvil.stop()
    await dynamo.stop()
  }
}

async function measureOn(rpcUrl: string): Promise<IndexerRunFigure[]> {
  const { chainOf } =
    await load<typeof import('../../lib/chain/clients')>('../../lib/chain/clients')
  const { loadChainConfig } = await load<typeof import('../../lib/config')>('../../lib/config')
  const { db } = await load<typeof import('../../lib/db/client')>('../../lib/db/client')
  const { countRequests } = await load<typeof import('../support/requestCounters')>(
    '../support/requestCounters',
  )
  const { rpcResponseChannel, rpcRequestChannel } =
    await load<typeof import('../support/rpcChannels')>('../support/rpcChannels')
  const { markWalletsKnown } =
    await load<typeof import('../../lib/db/wallet')>('../../lib/db/wallet')
  const { listInCatalog } = await load<typeof import('../support/catalogListing')>(
    '../support/catalogListing',
  )
  const { indexDeposits } = await load<typeof import('../../lib/trades/indexDeposits')>(
    '../../lib/trades/indexDeposits',
  )
  const { logger } = await load<typeof import('../../lib/logger')>('../../lib/logger')
  logger.setLogLevel('SILENT')

  const client = createTestClient({
    mode: 'anvil',
    chain: chainOf(loadChainConfig('ethereum')),
    transport: http(rpcUrl, { retryCount: 0 }),
    pollingInterval: 50,
  })
    .extend(publicActions)
    .extend(walletActions)
  const [deployer] = (await client.getAddresses()) as [Address]
  const [emitter, stream] = await Promise.all([loadTransferEmitter(), loadTransferStream()])
  const deployed = async (bytecode: `0x${string}`, abi: typeof emitter.abi) => {
    const hash = await client.deployContract({ abi, bytecode, account: deployer })
    const { contractAddress } = await client.waitForTransactionReceipt({ hash })
    return getAddress(contractAddress ?? '0x')
  }
  const tokens: Address[] = []
  for (let index = 0; index < CATALOG_TOKENS; index += 1) {
    tokens.push(await deployed(emitter.bytecode, emitter.abi))
  }
  const streamer = await deployed(stream.bytecode, stream.abi)
  for (const [index, token] of tokens.entries()) {
    await listInCatalog('ethereum', { address: token, decimals: 18, symbol: `T${index}` })
  }

  const known: Address[] = []
  /** Makes `count` wallets known in all, 8 batch writers at once. */
  const knowWallets = async (count: number) => {
    const fresh = Array.from({ length: count - known.length }, randomAddress)
    const slices = 8
    const size = Math.ceil(fresh.length / slices)
    await Promise.all(
      Array.from({ length: slices }, (_, slice) =>
        markWalletsKnown(fresh.slice(slice * size, (slice + 1) * size)),
      ),
    )
    known.push(...fresh)
  }

  /** One block of the stream: 300 logs over the 100 tokens, KNOWN_PER_BLOCK to known wallets. */
  const mineStreamBlock = async () => {
    const recipients = Array.from({ length: LOGS_PER_BLOCK }, randomAddress)
    for (let index = 0; index < KNOWN_PER_BLOCK; index += 1) {
      recipients[index * 97] = known[Math.floor(Math.random() * known.length)] ?? randomAddress()
    }
    const hash = await client.writeContract({
      address: streamer,
      abi: transferStreamAbi,
      functionName: 'emitEach',
      args: [tokens, deployer, recipients, parseEther('1')],
      account: deployer,
      chain: null,
      gas: 20_000_000n,
    })
    await client.waitForTransactionReceipt({ hash })
  }

  const measureRun = async (label: string, blocks: number): Promise<IndexerRunFigure> => {
    const counter = countRequests(db())
    let bytesReceived = 0
    let bytesSent = 0
    const onResponse = (size: unknown) => {
      bytesReceived += Number(size)
    }
    const onRequest = (body: unknown) => {
      bytesSent += Buffer.byteLength(String(body))
    }
    subscribe(rpcResponseChannel.name, onResponse)
    subscribe(rpcRequestChannel.name, onRequest)
    const started = performance.now()
    let recorded = 0
    let runs = 0
    const failures: string[] = []
    try {
      // Until the cursor reaches the head: a run that fails is followed by the next one.
      for (;;) {
        runs += 1
        const [run] = await indexDeposits({ networks: ['ethereum'] }).catch((error: unknown) => {
          failures.push(error instanceof Error ? `${error.name}: ${error.message}` : String(error))
          return [undefined]
        })
        recorded += run?.recorded ?? 0
        const head = await client.getBlockNumber({ cacheTime: 0 })
        if (run?.toBlock === head || runs >= 5) break
      }
    } finally {
      unsubscribe(rpcResponseChannel.name, onResponse)
      unsubscribe(rpcRequestChannel.name, onRequest)
    }
    const elapsed = performance.now() - started
    const tally = counter.take()
    counter.stop()
    const writes = WRITE_COMMANDS.reduce(
      (sum, name) => sum + (tally.dynamo.byCommand[name] ?? 0),
      0,
    )
    if (failures.length > 0) console.error(`${label}: ${failures.join('; ')}`)
    return {
      case: label,
      wallets: known.length,
      blocks,
      ms: elapsed,
      rpcCalls: tally.rpc.calls,
      roundTrips: tally.rpc.roundTrips,
      bytesReceived,
      bytesSent,
      dynamoCalls: tally.dynamo.calls,
      dynamoWrites: writes,
      recorded,
      runs,
      methods: Object.entries(tally.rpc.byMethod)
        .map(([method, count]) => `${method} ${count}`)
        .join(', '),
    }
  }

  // The cursor at the head before the stream starts.
  await indexDeposits({ networks: ['ethereum'] })
  const figures: IndexerRunFigure[] = []
  for (const wallets of WALLET_COUNTS) {
    await knowWallets(wallets)
    for (const { chain, blockSeconds } of CHAINS) {
      const blocks = Math.round(60 / blockSeconds)
      for (let block = 0; block < blocks; block += 1) await mineStreamBlock()
      figures.push(await measureRun(`${chain} minute`, blocks))
    }
    // A burst: one catalog token's 13,000 transfers in one block, beside a normal block's.
    const burst = await client.writeContract({
      address: tokens[0] ?? '0x',
      abi: transferEmitterAbi,
      functionName: 'emitTransfers',
      args: [deployer, randomAddress(), 1n, BURST_LOGS, true],
      account: deployer,
      chain: null,
      gas: 29_000_000n,
    })
    await client.waitForTransactionReceipt({ hash: burst })
    await mineStreamBlock()
    figures.push(await measureRun('13,000-log burst + 1 block', 2))
  }
  return figures
}

const mb = (bytes: number) =>
  bytes >= 1_048_576 ? `${(bytes / 1_048_576).toFixed(1)} MB` : `${(bytes / 1024).toFixed(1)} KB`

export function indexerSection(figures: IndexerRunFigure[]): string[] {
  const perMinute = figures.filter((figure) => figure.case.endsWith('minute'))
  const bursts = figures.filter((figure) => figure.case.includes('burst'))
  return [
    SECTION_TITLE,
    '',
    `\`npx tsx tests/bench/indexer.ts\` (alone; ${cpus().length} CPUs shared). On an anvil and a ` +
      `DynamoDB Local of its own: ${CATALOG_TOKENS} catalog tokens, blocks of ${LOGS_PER_BLOCK} ` +
      `\`Transfer\` logs across them (${KNOWN_PER_BLOCK} a block into known wallets, so as many ` +
      'deposits), one indexer run per chain minute: 5 blocks for Ethereum (12 s), 80 for BNB Chain ' +
      '(0.75 s). Each block carries one transaction, so block bodies are smaller than mainnet’s ' +
      '(about 150 transactions, 100–200 KB a block with its transactions).',
    '',
    '| chain minute | known wallets | blocks | run | RPC calls | round trips | received | sent | DynamoDB calls | writes | deposits |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...perMinute.map(
      (figure) =>
        `| ${figure.case.replace(' minute', '')} | ${figure.wallets.toLocaleString('en')} | ` +
        `${figure.blocks} | ${(figure.ms / 1000).toFixed(2)} s | ${figure.rpcCalls} | ` +
        `${figure.roundTrips} | ${mb(figure.bytesReceived)} | ${mb(figure.bytesSent)} | ` +
        `${figure.dynamoCalls} | ${figure.dynamoWrites} | ${figure.recorded} |`,
    ),
    '',
    'After a block with a burst of 13,000 `Transfer` logs of one catalog token (about 8 MB of ' +
      'logs), with one stream block after it: what the indexer needed to pass both.',
    '',
    '| known wallets | runs | time (the lag) | RPC calls | round trips | received | DynamoDB calls | writes | deposits | calls |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
    ...bursts.map(
      (figure) =>
        `| ${figure.wallets.toLocaleString('en')} | ${figure.runs} | ` +
        `${(figure.ms / 1000).toFixed(2)} s | ${figure.rpcCalls} | ${figure.roundTrips} | ` +
        `${mb(figure.bytesReceived)} | ${figure.dynamoCalls} | ${figure.dynamoWrites} | ` +
        `${figure.recorded} | ${figure.methods} |`,
    ),
    '',
  ]
}

if (process.argv[1]?.endsWith('tests/bench/indexer.ts')) {
  const at = provenanceNow()
  measureIndexer()
    .then((figures) => {
      const lines = indexerSection(figures)
      if (!process.argv.includes('--section-only')) writeSections([section('indexer', at, lines)])
      console.log(lines.join('\n'))
      process.exit(0)
    })
    .catch((error: unknown) => {
      console.error(error)
      process.exit(1)
    })
}
