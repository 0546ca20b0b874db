// A chain configuration for unit tests, set before any module reads it: no engine is behind the
// RPC URL (port 9, discard), so a test that reaches for the network fails instead of hanging.
const ADDRESSES = {
  ROUTER: '0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D',
  FACTORY: '0x5C69bEe701ef814a2B6a3EDD4B1652CB9cc5aA6f',
  WRAPPED_NATIVE: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2',
  USD_STABLECOIN: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
  SWAP_ROUTER: '0x68b3465833fb72A70ecDF485E0e4C7bD8665Fc45',
}

export const UNIT_CHAIN_ID = 31337
export const UNIT_ROUTER = ADDRESSES.ROUTER as `0x${string}`
export const UNIT_SWAP_ROUTER = ADDRESSES.SWAP_ROUTER as `0x${string}`

Object.assign(process.env, {
  STAGE: 'local',
  AWS_REGION: 'us-east-1',
  TABLE_NAME: 'unit-tests',
  LOG_LEVEL: 'SILENT',
  ETHEREUM_CHAIN_ID: String(UNIT_CHAIN_ID),
  ETHEREUM_RPC_URL: 'http://127.0.0.1:9',
  ALTCHAIN_CHAIN_ID: '31338',
  ALTCHAIN_RPC_URL: 'http://127.0.0.1:9',
  ...Object.fromEntries(
    Object.entries(ADDRESSES).flatMap(([name, value]) => [
      [`ETHEREUM_${name}`, value],
      [`ALTCHAIN_${name}`, value],
    ]),
  ),
})
