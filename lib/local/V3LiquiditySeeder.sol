// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

interface IV3PoolForSeeding {
    function token0() external view returns (address);
    function token1() external view returns (address);
    function initialize(uint160 sqrtPriceX96) external;
    function mint(
        address recipient,
        int24 tickLower,
        int24 tickUpper,
        uint128 amount,
        bytes calldata data
    ) external returns (uint256 amount0, uint256 amount1);
}

interface IV3FactoryForSeeding {
    function createPool(address tokenA, address tokenB, uint24 fee) external returns (address pool);
}

/// @notice Demo liquidity for the devnets: creates, prices and fills a Uniswap V3 or PancakeSwap
/// V3 pool in one transaction (one per pool keeps `npm start` short), paying the pool from its
/// owner's approved balances. Positions belong to the owner. Devnet tooling, not for mainnet.
contract V3LiquiditySeeder {
    struct Position {
        int24 tickLower;
        int24 tickUpper;
        uint128 liquidity;
    }

    address private immutable owner;
    /// @dev The pool being minted into: the only caller the mint callbacks pay.
    address private minting;

    constructor() {
        owner = msg.sender;
    }

    function seed(
        address factory,
        address tokenA,
        address tokenB,
        uint24 fee,
        uint160 sqrtPriceX96,
        Position[] calldata positions
    ) external returns (address pool) {
        require(msg.sender == owner, "only owner");
        pool = IV3FactoryForSeeding(factory).createPool(tokenA, tokenB, fee);
        IV3PoolForSeeding(pool).initialize(sqrtPriceX96);
        minting = pool;
        for (uint256 i = 0; i < positions.length; i++) {
            Position calldata position = positions[i];
            IV3PoolForSeeding(pool).mint(
                owner,
                position.tickLower,
                position.tickUpper,
                position.liquidity,
                ""
            );
        }
        minting = address(0);
    }

    function uniswapV3MintCallback(uint256 amount0Owed, uint256 amount1Owed, bytes calldata) external {
        pay(amount0Owed, amount1Owed);
    }

    function pancakeV3MintCallback(uint256 amount0Owed, uint256 amount1Owed, bytes calldata) external {
        pay(amount0Owed, amount1Owed);
    }

    function pay(uint256 amount0, uint256 amount1) private {
        require(msg.sender == minting && minting != address(0), "not the pool being seeded");
        IV3PoolForSeeding pool = IV3PoolForSeeding(msg.sender);
        if (amount0 > 0) require(IERC20(pool.token0()).transferFrom(owner, msg.sender, amount0), "token0");
        if (amount1 > 0) require(IERC20(pool.token1()).transferFrom(owner, msg.sender, amount1), "token1");
    }
}
