import '../../support/env'
import { erc20Abi, getAddress, parseEther, parseUnits, type TransactionReceipt } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import type { NetworkName } from '../../../lib/networkNames'
import { depositCursorOf, placeDepositCursor } from '../../support/depositCursor'
import { NATIVE_COIN } from '../../../lib/constants'
import { listTrades } from '../../../lib/db/trade'
import type { Trade } from '../../../lib/db/tradeItem'
import { markWalletsKnown } from '../../../lib/db/wallet'
import { indexDeposits } from '../../../lib/trades/indexDeposits'
import { devnet } from '../../support/devnetAccounts'
import { fundedAccount } from '../../support/devnetAccounts'
import { demoToken, giveTokens, receiptOf } from '../../support/tradeFixtures'

async function knownWallet(network: NetworkName) {
  const wallet = await fundedAccount(network, { native: parseEther('10') })
  await markWalletsKnown([wallet.address])
  return wallet
}

async function allTrades(wallet: string): Promise<{ count: number; trades: Trade[] }> {
  return listTrades({ wallet, limit: 100, offset: 0, direction: 'ASC' })
}

// The scheduled indexer of serverless offline runs beside these tests on the same devnets and
// table; assertions are on the recorded trades, which must come out the same whoever runs first.
describe('indexDeposits', () => {
  it('records ERC-20 and native transfers into a known wallet once, also when the range is scanned again', async () => {
    const network = 'ethereum'
    const client = devnet(network)
    const token = demoToken(network)
    const wallet = await knownWallet(network)
    const sender = await fundedAccount(network)
    const unknown = privateKeyToAccount(generatePrivateKey()).address
    await giveTokens(network, {
      token: token.address,
      to: sender.address,
      amount: parseUnits('100', token.decimals),
    })
    const send = (to: `0x${string}`, value: bigint) =>
      client.sendTransaction({ account: sender.account, chain: client.chain, to, value })
    const transfer = (to: `0x${string}`, amount: string) =>
      client.writeContract({
        account: sender.account,
        chain: client.chain,
        address: token.address,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [to, parseUnits(amount, token.decimals)],
      })
    const hashes = [
      await send(wallet.address, parseEther('1.25')),
      await transfer(wallet.address, '42.5'),
      await send(unknown, parseEther('1')),
      await transfer(unknown, '1'),
    ]
    const receipts: TransactionReceipt[] = []
    for (const hash of hashes) receipts.push(await receiptOf(network, hash))
    const [nativeReceipt, tokenReceipt] = receipts as [TransactionReceipt, TransactionReceipt]
    const firstBlock = nativeReceipt.blockNumber

    await placeDepositCursor(network, firstBlock)
    const [first] = await indexDeposits({ networks: [network] })
    await placeDepositCursor(network, firstBlock)
    const [again] = await indexDeposits({ networks: [network] })

    expect(first).toMatchObject({ network, fromBlock: firstBlock })
    expect(again).toMatchObject({ network, fromBlock: firstBlock, recorded: 0 })
    expect(await depositCursorOf(network)).toBeGreaterThan(tokenReceipt.blockNumber)
    const { count, trades } = await allTrades(wallet.address)
    expect(count).toBe(2)
    expect(trades).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          hash: nativeReceipt.transactionHash,
          type: 'deposit',
          network,
          status: 'successful',
          wallet: wallet.address,
          from: sender.address,
          to: wallet.address,
          amount: '1.25',
          token: getAddress(NATIVE_COIN),
          isNativeTransfer: true,
          gasUsed: nativeReceipt.gasUsed,
          blockNumber: nativeReceipt.blockNumber,
        }),
        expect.objectContaining({
          hash: tokenReceipt.transactionHash,
          type: 'deposit',
          status: 'successful',
          from: sender.address,
          to: wallet.address,
          amount: '42.5',
          token: token.address,
          isNativeTransfer: false,
          logIndex: tokenReceipt.logs[0]?.logIndex,
          gasUsed: tokenReceipt.gasUsed,
          blockNumber: tokenReceipt.blockNumber,
        }),
      ]),
    )
    expect((await allTrades(unknown)).count).toBe(0)
  })

  it('does not take a wallet’s own transaction as a deposit, and follows altchain too', async () => {
    const network = 'altchain'
    const client = devnet(network)
    const wallet = await knownWallet(network)
    const sender = await fundedAccount(network)
    const own = await client.sendTransaction({
      account: wallet.account,
      chain: client.chain,
      to: wallet.address,
      value: parseEther('1'),
    })
    const incoming = await client.sendTransaction({
      account: sender.account,
      chain: client.chain,
      to: wallet.address,
      value: parseEther('3'),
    })
    const ownReceipt = await receiptOf(network, own)
    await receiptOf(network, incoming)

    await placeDepositCursor(network, ownReceipt.blockNumber)
    await indexDeposits({ networks: [network] })

    const { count, trades } = await allTrades(wallet.address)
    expect(count).toBe(1)
    expect(trades[0]).toMatchObject({ hash: incoming, amount: '3', from: sender.address })
  })

  it('scans at most maxBlocks blocks from the cursor per run', async () => {
    const network = 'ethereum'
    const head = await devnet(network).getBlockNumber({ cacheTime: 0 })

    await placeDepositCursor(network, head - 5n)
    const [run] = await indexDeposits({ networks: [network], maxBlocks: 3 })

    expect(run).toMatchObject({ fromBlock: head - 5n, toBlock: head - 3n })
  })
})
