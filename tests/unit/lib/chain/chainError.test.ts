import { RpcRequestError } from 'viem'
import { describe, expect, it } from 'vitest'
import { isNodeFailure, isOutOfGas, translateChainError } from '../../../../lib/chain/chainError'
import { ChainUnavailable, Unprocessable } from '../../../../lib/errors'

// A call that burns the gas it was given is the contract's answer, not the node failing: anvil
// words it as -32603 "EVM error OutOfGas", geth as "out of gas" or "gas required exceeds
// allowance". Counted as a node failure it would be a 502 and demote a healthy RPC URL.

const rpcError = (code: number, message: string) =>
  new RpcRequestError({
    body: { method: 'eth_call' },
    error: { code, message },
    url: 'http://node',
  })

describe('out of gas against node failures', () => {
  it.each([
    [-32603, 'EVM error OutOfGas'],
    [-32000, 'out of gas'],
    [-32003, 'Out of gas: gas required exceeds allowance: 3000000'],
  ])('%i %s is the contract running out of gas: 422, not a node failure', (code, message) => {
    const error = rpcError(code, message)

    expect(isOutOfGas(error)).toBe(true)
    expect(isNodeFailure(error)).toBe(false)
    expect(translateChainError(error, 'ethereum')).toBeInstanceOf(Unprocessable)
  })

  it.each([
    [-32603, 'internal error'],
    [-32005, 'limit exceeded'],
  ])('%i %s is still the node failing: 502', (code, message) => {
    const error = rpcError(code, message)

    expect(isOutOfGas(error)).toBe(false)
    expect(isNodeFailure(error)).toBe(true)
    expect(translateChainError(error, 'ethereum')).toBeInstanceOf(ChainUnavailable)
  })
})
