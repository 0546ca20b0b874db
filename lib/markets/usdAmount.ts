import { formatUnits } from 'viem'

/** USD amounts and prices are bigint fixed-point numbers with this many decimals. */
export const USD_DECIMALS = 18
export const ONE_USD = 10n ** BigInt(USD_DECIMALS)

/** A USD fixed-point value as a JS number: only at the response edge. */
export function usdToNumber(valueE18: bigint): number {
  return Number(formatUnits(valueE18, USD_DECIMALS))
}

/** The USD value of `amount` base units of a token with `decimals`, at `priceE18` per token. */
export function valueInUsd(amount: bigint, decimals: number, priceE18: bigint): bigint {
  return (amount * priceE18) / 10n ** BigInt(decimals)
}
