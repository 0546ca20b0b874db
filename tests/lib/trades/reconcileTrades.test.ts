import '../../support/env'
import { randomBytes } from 'node:crypto'
import { encodeFunctionData, erc20Abi, parseEther, parseUnits, toHex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { getTrade, recordTrade } from '../../../lib/db/trade'
import { reconcileTrades } from '../../../lib/trades/reconcileTrades'
import { devnet, fundedAccount } from '../../support/devnetAccounts'
import { createMockTrade, demoToken, giveTokens, receiptOf } from '../../support/tradeFixtures'

const stranger = () => privateKeyToAccount(generatePrivateKey()).address

describe('reconcileTrades', () => {
  it('moves mined native and ERC-20 transfers to successful with the receipt’s gas and block', async () => {
    const token = demoToken('ethereum')
    const sender = await fundedAccount('ethereum')
    await giveTokens('ethereum', {
      token: token.address,
      to: sender.address,
      amount: parseUnits('100', token.decimals),
    })
    const client = devnet('ethereum')
    const to = stranger()
    const nativeHash = await client.sendTransaction({
      account: sender.account,
      chain: client.chain,
      to,
      value: parseEther('0.5'),
    })
    const tokenHash = await client.writeContract({
      account: sender.account,
      chain: client.chain,
      address: token.address,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [to, parseUnits('2.5', token.decimals)],
    })
    const receipts = [
      await receiptOf('ethereum', nativeHash),
      await receiptOf('ethereum', tokenHash),
    ]
    const base = { wallet: sender.address, from: sender.address, to }
    const native = await recordTrade(createMockTrade({ ...base, hash: nativeHash, amount: '0.5' }))
    const erc20 = await recordTrade(
      createMockTrade({
        ...base,
        hash: tokenHash,
        amount: '2.5',
        token: token.address,
        isNativeTransfer: false,
      }),
    )

    await reconcileTrades({ networks: ['ethereum'] })

    for (const [index, { id }] of [native, erc20].entries()) {
      expect(await getTrade(sender.address, id)).toMatchObject({
        status: 'successful',
        gasUsed: receipts[index]?.gasUsed,
        blockNumber: receipts[index]?.blockNumber,
      })
    }
  })

  it('moves a mined, reverted transaction to failed', async () => {
    const token = demoToken('altchain')
    const sender = await fundedAccount('altchain')
    const client = devnet('altchain')
    // More than the sender holds (nothing): the token reverts. A fixed gas limit skips the
    // estimate, which would refuse to send it.
    const hash = await client.sendTransaction({
      account: sender.account,
      chain: client.chain,
      to: token.address,
      data: encodeFunctionData({
        abi: erc20Abi,
        functionName: 'transfer',
        args: [stranger(), 1n],
      }),
      gas: 100_000n,
    })
    const receipt = await receiptOf('altchain', hash)
    const { id } = await recordTrade(
      createMockTrade({
        hash,
        network: 'altchain',
        wallet: sender.address,
        from: sender.address,
        token: token.address,
        isNativeTransfer: false,
      }),
    )

    await reconcileTrades({ networks: ['altchain'] })

    expect(receipt.status).toBe('reverted')
    expect(await getTrade(sender.address, id)).toMatchObject({
      status: 'failed',
      gasUsed: receipt.gasUsed,
      blockNumber: receipt.blockNumber,
    })
  })

  it('leaves a trade pending while its transaction has no receipt', async () => {
    const trade = createMockTrade({ hash: toHex(randomBytes(32)) })
    const { id } = await recordTrade(trade)

    const runs = await reconcileTrades({ networks: ['ethereum'] })

    expect(runs).toEqual([
      { network: 'ethereum', checked: expect.any(Number), settled: expect.any(Number) },
    ])
    expect(await getTrade(trade.wallet, id)).toMatchObject({
      status: 'pending',
      gasUsed: undefined,
      blockNumber: undefined,
    })
  })
})
