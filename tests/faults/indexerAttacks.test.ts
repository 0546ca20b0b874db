import '../support/env'
import { randomUUID } from 'node:crypto'
import { subscribe, unsubscribe } from 'node:diagnostics_channel'
import { type Address, type Hash, type Hex, getAddress, parseEther, parseUnits } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chainOf } from '../../lib/chain/clients'
import { rpcRequestChannel, rpcResponseChannel } from '../support/rpcChannels'
import { loadChainConfig } from '../../lib/config'
import { depositCursorOf, placeDepositCursor } from '../support/depositCursor'
import { listTrades } from '../../lib/db/trade'
import { markWalletsKnown } from '../../lib/db/wallet'
import { type AnvilNode, startAnvil } from '../../lib/local/anvil'
import { catalogTokenAbi, loadCatalogTokenArtifact } from '../../lib/local/catalogTokenArtifact'
import { DEVNET_CHAIN_IDS } from '../../lib/local/deployDex'
import { findFreePort } from '../../lib/local/findFreePort'
import { createTable } from '../../lib/local/localTable'
import { indexDeposits } from '../../lib/trades/indexDeposits'
import { listInCatalog } from '../support/catalogListing'
import { httpEvent, invoke } from '../support/httpEvent'
import { signInWithWallet } from '../support/walletSignIn'
import { ownDevnetClient } from '../support/faultEngines'
import { loadTransferEmitter, transferEmitterAbi } from '../support/transferEmitter'
import { networkRoute } from '../../lib/networkRoutes/networkRoutes'

const transferEthereum = networkRoute('transfer', 'ethereum')

// The two attacks on the deposit indexer of issue 22 (DECISIONS §8.2), replayed on an ethereum
// devnet and a table of this file's own, with 1,000 known wallets: a stranger's contract that
// emits 13,000 `Transfer` events in each of two transactions (26M gas, a block each), and one
// that plants `Transfer(look-alike, victim, 5e9)` in a wallet's history. Counted: the indexer's
// runs, its RPC calls and the bytes the node sent.

const SPAM_LOGS = 13_000n
const KNOWN_WALLETS = 1_000

let anvil: AnvilNode
let client: ReturnType<typeof ownClient>
let deployer: Address
let token: Address
let spammer: Address
/** A catalog token whose transfers come in bursts (the emitter, listed). */
let burstToken: Address
let knownWallets: Address[]

function ownClient(rpcUrl: string) {
  return ownDevnetClient(rpcUrl, chainOf(loadChainConfig('ethereum')))
}

const randomAddress = () => privateKeyToAccount(generatePrivateKey()).address

beforeAll(async () => {
  const table = `attacks-${randomUUID()}`
  anvil = await startAnvil({ port: await findFreePort(), chainId: DEVNET_CHAIN_IDS.ethereum })
  await createTable(String(process.env.DYNAMODB_ENDPOINT), table)
  // Before any module reads its configuration: the modules build their clients on first use.
  Object.assign(process.env, {
    TABLE_NAME: table,
    ETHEREUM_RPC_URL: anvil.rpcUrl,
    // The burst's 26,000 recipients are looked up in 260 BatchGets of 100 keys. The shared
    // DynamoDB Local is a JVM on this machine: on a busy one a BatchGet outlasted the deployed
    // 1 s timeout twice (DatabaseUnavailable 30 s into the run). The database's latency is not
    // what this file tests; its outages are databaseOutage.test.ts's.
    DYNAMODB_REQUEST_TIMEOUT_MS: '10000',
  })
  client = ownClient(anvil.rpcUrl)
  ;[deployer] = (await client.getAddresses()) as [Address]
  const [catalogToken, emitter] = await Promise.all([
    loadCatalogTokenArtifact(),
    loadTransferEmitter(),
  ])
  const deployed = async (hash: Hash) => {
    const { contractAddress } = await client.waitForTransactionReceipt({ hash })
    return getAddress(contractAddress ?? '0x')
  }
  token = await deployed(
    await client.deployContract({
      abi: catalogTokenAbi,
      bytecode: catalogToken.bytecode,
      account: deployer,
      args: ['Listed USD', 'LUSD', 6, parseUnits('1000000', 6), deployer],
    }),
  )
  spammer = await deployed(
    await client.deployContract({
      abi: emitter.abi,
      bytecode: emitter.bytecode,
      account: deployer,
    }),
  )
  burstToken = await deployed(
    await client.deployContract({
      abi: emitter.abi,
      bytecode: emitter.bytecode,
      account: deployer,
    }),
  )
  await listInCatalog('ethereum', { address: token, decimals: 6, symbol: 'LUSD' })
  await listInCatalog('ethereum', { address: burstToken, decimals: 18, symbol: 'BURST' })
  knownWallets = Array.from({ length: KNOWN_WALLETS }, randomAddress)
  await markWalletsKnown(knownWallets)
  // The first run puts the cursor at the head: what came before is not a deposit.
  await indexDeposits({ networks: ['ethereum'] })
}, 180_000)

afterAll(async () => {
  await anvil?.stop()
})

/** RPC calls by method and bytes received while `run` runs (this file's calls only). */
async function counted<Result>(run: () => Promise<Result>) {
  const calls: Record<string, number> = {}
  let bytes = 0
  const onRequest = (message: unknown) => {
    for (const call of [JSON.parse(String(message)) as { method: string }].flat()) {
      calls[call.method] = (calls[call.method] ?? 0) + 1
    }
  }
  const onResponse = (size: unknown) => {
    bytes += Number(size)
  }
  subscribe(rpcRequestChannel.name, onRequest)
  subscribe(rpcResponseChannel.name, onResponse)
  try {
    const result = await run()
    return { result, calls, bytes }
  } finally {
    unsubscribe(rpcRequestChannel.name, onRequest)
    unsubscribe(rpcResponseChannel.name, onResponse)
  }
}

async function deposits(wallet: Address) {
  const { trades } = await listTrades({ wallet, limit: 10, offset: 0, direction: 'ASC' })
  return trades.filter((trade) => trade.type === 'deposit')
}

/** Sends the transactions with automine off and mines them in one block; its number. */
async function inOneBlock(send: Array<() => Promise<Hash>>): Promise<{
  block: bigint
  hashes: Hash[]
}> {
  await client.setAutomine(false)
  const hashes: Hash[] = []
  try {
    for (const transaction of send) hashes.push(await transaction())
    await client.mine({ blocks: 1 })
  } finally {
    await client.setAutomine(true)
  }
  const receipts = await Promise.all(
    hashes.map((hash) => client.waitForTransactionReceipt({ hash })),
  )
  const blocks = new Set(receipts.map((receipt) => receipt.blockNumber))
  expect(blocks.size).toBe(1)
  for (const receipt of receipts) expect(receipt.status).toBe('success')
  return { block: receipts[0]?.blockNumber ?? 0n, hashes }
}

const spam = (from: Address) => () =>
  client.writeContract({
    address: spammer,
    abi: transferEmitterAbi,
    functionName: 'emitTransfers',
    // Spread over addresses nobody knows, as a spammer's would be.
    args: [from, randomAddress(), 1n, SPAM_LOGS, true],
    account: deployer,
    chain: null,
    gas: 29_000_000n,
  })

const payToken = (to: Address, amount: string) => () =>
  client.writeContract({
    address: token,
    abi: catalogTokenAbi,
    functionName: 'transfer',
    args: [to, parseUnits(amount, 6)],
    account: deployer,
    chain: null,
  })

const payNative = (to: Address, amount: string) => () =>
  client.sendTransaction({ to, value: parseEther(amount), account: deployer, chain: null })

/** An address with `victim`'s first and last four hex digits, as a poisoner generates one. */
function lookAlike(victim: Address): Address {
  const hex = victim.slice(2).toLowerCase()
  return getAddress(`0x${hex.slice(0, 4)}${'0'.repeat(32)}${hex.slice(-4)}`)
}

describe('address poisoning', () => {
  it('records no trade for a stranger contract’s Transfer(look-alike, victim, 5e9), a look-alike’s dust or a zero-value transfer', async () => {
    const [victim, control] = knownWallets.slice(10, 12) as [Address, Address]
    const poser = lookAlike(victim)
    await client.impersonateAccount({ address: poser })
    await client.setBalance({ address: poser, value: parseEther('1') })
    const fromPoser = () =>
      client.writeContract({
        address: token,
        abi: catalogTokenAbi,
        functionName: 'transfer',
        args: [victim, 1n],
        account: poser,
        chain: null,
      })
    await payToken(poser, '1')()
    const poison = () =>
      client.writeContract({
        address: spammer,
        abi: transferEmitterAbi,
        functionName: 'emitTransfers',
        args: [poser, victim, 5_000_000_000n, 3n, false],
        account: deployer,
        chain: null,
      })
    const zeroValue = () =>
      client.writeContract({
        address: token,
        abi: catalogTokenAbi,
        functionName: 'transfer',
        args: [victim, 0n],
        account: deployer,
        chain: null,
      })
    const { hashes } = await inOneBlock([
      poison,
      fromPoser,
      zeroValue,
      payNative(victim, '0'),
      payToken(control, '1'),
    ])
    await client.stopImpersonatingAccount({ address: poser })
    const poisonReceipt = await client.getTransactionReceipt({ hash: hashes[0] as Hash })
    expect(poisonReceipt.logs).toHaveLength(3)

    const [run] = await indexDeposits({ networks: ['ethereum'] })

    expect(run).toMatchObject({ recorded: 1 })
    expect(await deposits(victim)).toEqual([])
    expect(await deposits(control)).toEqual([
      expect.objectContaining({ hash: hashes[4] as Hex, amount: '1', token }),
    ])
  }, 120_000)
})

describe('look-alikes of the addresses a wallet sent to (DECISIONS §9.1)', () => {
  it('records no deposit from an address with the first and last four hex digits of one the wallet paid through the transfer route, and records the one it paid and a stranger', async () => {
    const owner = generatePrivateKey()
    const { address: wallet, access } = await signInWithWallet(owner)
    await client.setBalance({ address: wallet, value: parseEther('1') })
    const paid = randomAddress()
    const sent = await invoke(
      transferEthereum,
      httpEvent({
        route: 'transferEthereum',
        pathParameters: { key: owner },
        headers: { authorization: `Bearer ${access}` },
        body: { to: paid, amount: '0.1' },
      }),
    )
    expect(sent.status).toBe(200)
    await client.waitForTransactionReceipt({ hash: (sent.body.result as { txId: Hash }).txId })
    const poser = lookAlike(paid)
    const stranger = randomAddress()
    const from = (sender: Address, amount: string) => async () => {
      await client.impersonateAccount({ address: sender })
      await client.setBalance({ address: sender, value: parseEther('1') })
      await payToken(sender, amount)()
      const hash = await client.writeContract({
        address: token,
        abi: catalogTokenAbi,
        functionName: 'transfer',
        args: [wallet, parseUnits(amount, 6)],
        account: sender,
        chain: null,
      })
      await client.stopImpersonatingAccount({ address: sender })
      expect((await client.waitForTransactionReceipt({ hash })).status).toBe('success')
      return hash
    }
    const fromPoser = await from(poser, '5')()
    const fromPaid = await from(paid, '3')()
    const fromStranger = await from(stranger, '2')()

    const [run] = await indexDeposits({ networks: ['ethereum'] })

    expect(run).toMatchObject({ lookAlikes: 1 })
    const { trades } = await listTrades({ wallet, limit: 10, offset: 0, direction: 'ASC' })
    expect(trades.map((trade) => [trade.type, trade.hash, trade.amount])).toEqual([
      ['transfer', (sent.body.result as { txId: Hash }).txId, '0.1'],
      ['deposit', fromPaid, '3'],
      ['deposit', fromStranger, '2'],
    ])
    expect(trades.map((trade) => trade.hash)).not.toContain(fromPoser)
  }, 120_000)
})

describe('a contract emitting 13,000 Transfer events in each of two blocks', () => {
  it('costs the indexer nothing: one run passes both blocks and records their real deposits once', async () => {
    const [first, second, third] = knownWallets as [Address, Address, Address]
    const cursorBefore = (await depositCursorOf('ethereum')) ?? 0n
    const one = await inOneBlock([
      spam(deployer),
      payToken(first, '12.5'),
      payNative(second, '0.5'),
    ])
    const two = await inOneBlock([spam(deployer), payToken(third, '3')])
    const spamReceipt = await client.getTransactionReceipt({ hash: two.hashes[0] as Hash })
    expect(BigInt(spamReceipt.logs.length)).toBe(SPAM_LOGS)
    expect(spamReceipt.gasUsed).toBeGreaterThan(20_000_000n)

    const { result, calls, bytes } = await counted(() => indexDeposits({ networks: ['ethereum'] }))

    expect(result).toEqual([
      expect.objectContaining({ fromBlock: cursorBefore, toBlock: two.block, recorded: 3 }),
    ])
    expect(await depositCursorOf('ethereum')).toBe(two.block + 1n)
    // One query over both blocks, for the catalog's token only: the spam is not in the answer
    // (13,000 logs would be about 8 MB a block).
    expect(calls.eth_getLogs).toBe(1)
    expect(bytes).toBeLessThan(200_000)

    // Scanned again from the first block: nothing is recorded twice.
    await placeDepositCursor('ethereum', one.block)
    const [again] = await indexDeposits({ networks: ['ethereum'] })
    expect(again).toMatchObject({ recorded: 0, toBlock: two.block })
    expect(await deposits(first)).toEqual([
      expect.objectContaining({ hash: one.hashes[1], amount: '12.5', token, status: 'successful' }),
    ])
    expect(await deposits(second)).toEqual([
      expect.objectContaining({ hash: one.hashes[2], amount: '0.5', isNativeTransfer: true }),
    ])
    expect(await deposits(third)).toEqual([
      expect.objectContaining({ hash: two.hashes[1], amount: '3', token }),
    ])
  }, 180_000)
})

describe('a burst of 13,000 transfers of a catalog token in each of two blocks', () => {
  it('delays the indexer without stalling it: one run splits what the node cannot send and records the deposits once', async () => {
    const [first, second, inBurst] = knownWallets.slice(20, 23) as [Address, Address, Address]
    // From `to` on, one address up each time: `to` itself gets the first transfer. A whole token
    // each, so the one into a known wallet is no dust (DECISIONS §9.1; BURST has no price).
    const burst = (to: Address) => () =>
      client.writeContract({
        address: burstToken,
        abi: transferEmitterAbi,
        functionName: 'emitTransfers',
        args: [deployer, to, parseEther('1'), SPAM_LOGS, true],
        account: deployer,
        chain: null,
        gas: 29_000_000n,
      })
    const deposit = (to: Address) => () =>
      client.writeContract({
        address: burstToken,
        abi: transferEmitterAbi,
        functionName: 'emitTransfers',
        args: [deployer, to, parseEther('7'), 1n, false],
        account: deployer,
        chain: null,
      })
    const cursorBefore = (await depositCursorOf('ethereum')) ?? 0n
    const one = await inOneBlock([burst(randomAddress()), deposit(first)])
    // A deposit inside the burst: its receipt carries all 13,000 logs (about 8 MB).
    const two = await inOneBlock([burst(inBurst), deposit(second)])

    const { result, calls } = await counted(() => indexDeposits({ networks: ['ethereum'] }))

    expect(result).toEqual([
      expect.objectContaining({ fromBlock: cursorBefore, toBlock: two.block, recorded: 3 }),
    ])
    expect(await depositCursorOf('ethereum')).toBe(two.block + 1n)
    // Both blocks' logs (about 16 MB) are over the transport's cap: the range was split.
    expect(calls.eth_getLogs).toBeGreaterThan(1)
    expect(await deposits(first)).toEqual([
      expect.objectContaining({ hash: one.hashes[1], amount: '7', token: burstToken }),
    ])
    expect(await deposits(second)).toEqual([
      expect.objectContaining({ hash: two.hashes[1], amount: '7', token: burstToken }),
    ])
    expect(await deposits(inBurst)).toEqual([
      expect.objectContaining({
        hash: two.hashes[0],
        amount: '1',
        status: 'successful',
        blockNumber: two.block,
      }),
    ])
  }, 180_000)
})
