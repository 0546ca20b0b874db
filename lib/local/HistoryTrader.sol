// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";

interface IV2PairForHistory {
    function token0() external view returns (address);
    function token1() external view returns (address);
    function getReserves() external view returns (uint112, uint112, uint32);
    function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes calldata data) external;
}

interface IV3PoolForHistory {
    function token0() external view returns (address);
    function token1() external view returns (address);
    function swap(
        address recipient,
        bool zeroForOne,
        int256 amountSpecified,
        uint160 sqrtPriceLimitX96,
        bytes calldata data
    ) external returns (int256 amount0, int256 amount1);
}

/// @notice DEMO DATA for the local devnets: the trades of a devnet's year of price history. Each
/// call moves every pool it names to a target price with real swaps (so the pools' price
/// accumulators and observations record it), paid from this contract's own inventory: a V3 pool
/// by a swap whose price limit is the target, a V2 pair by the exact input that lands on it.
/// Devnet tooling, not for mainnet.
contract HistoryTrader {
    using SafeERC20 for IERC20;

    struct Move {
        address pool;
        bool v3;
        /// @dev The target price as a V3 pool states it: sqrt(token1 per token0) in Q64.96.
        uint160 targetSqrtPriceX96;
    }

    uint256 private constant Q96 = 1 << 96;
    address private immutable owner;
    /// @dev The pool being swapped on: the only caller the swap callbacks pay.
    address private swapping;

    constructor() {
        owner = msg.sender;
    }

    function move(Move[] calldata moves) external {
        require(msg.sender == owner, "owner only");
        for (uint256 index = 0; index < moves.length; index++) {
            Move calldata step = moves[index];
            if (step.v3) moveV3(step.pool, step.targetSqrtPriceX96);
            else moveV2(step.pool, step.targetSqrtPriceX96);
        }
    }

    function moveV3(address pool, uint160 target) private {
        // slot0's first word is the price on Uniswap and PancakeSwap alike (their later fields differ).
        (bool ok, bytes memory slot0) = pool.staticcall(abi.encodeWithSignature("slot0()"));
        require(ok && slot0.length >= 32, "slot0");
        uint160 current = uint160(uint256(bytes32(slot0)));
        if (current == target) return;
        swapping = pool;
        // An input no inventory reaches: the swap ends at the price limit, the target.
        IV3PoolForHistory(pool).swap(
            address(this), target < current, type(int128).max, target, ""
        );
        swapping = address(0);
    }

    function uniswapV3SwapCallback(int256 amount0, int256 amount1, bytes calldata) external {
        pay(amount0, amount1);
    }

    function pancakeV3SwapCallback(int256 amount0, int256 amount1, bytes calldata) external {
        pay(amount0, amount1);
    }

    function pay(int256 amount0, int256 amount1) private {
        require(msg.sender == swapping, "not the pool being swapped");
        IV3PoolForHistory pool = IV3PoolForHistory(msg.sender);
        if (amount0 > 0) IERC20(pool.token0()).safeTransfer(msg.sender, uint256(amount0));
        if (amount1 > 0) IERC20(pool.token1()).safeTransfer(msg.sender, uint256(amount1));
    }

    /// @dev Sells x of one side so that reserveOut'/reserveIn' is the target price of that side:
    /// with the 0.3 % fee, (rIn + 0.997x)(rIn + x) = rIn * rOut / target, a quadratic in x.
    function moveV2(address pair, uint160 target) private {
        (uint112 reserve0, uint112 reserve1,) = IV2PairForHistory(pair).getReserves();
        (bool zeroForOne, uint256 amountIn) = v2Input(reserve0, reserve1, target);
        if (amountIn == 0) return;
        IV2PairForHistory v2 = IV2PairForHistory(pair);
        IERC20 tokenIn = IERC20(zeroForOne ? v2.token0() : v2.token1());
        uint256 reserveIn = zeroForOne ? reserve0 : reserve1;
        uint256 reserveOut = zeroForOne ? reserve1 : reserve0;
        tokenIn.safeTransfer(pair, amountIn);
        // What the pair received (a fee-on-transfer token delivers less than was sent).
        uint256 received = tokenIn.balanceOf(pair) - reserveIn;
        uint256 amountOut = (received * 997 * reserveOut) / (reserveIn * 1000 + received * 997);
        if (amountOut == 0) return;
        v2.swap(zeroForOne ? 0 : amountOut, zeroForOne ? amountOut : 0, address(this), "");
    }

    function v2Input(uint256 reserve0, uint256 reserve1, uint160 target)
        private
        pure
        returns (bool zeroForOne, uint256 amountIn)
    {
        uint256 product = reserve0 * reserve1;
        // rIn * rOut / price of the side sold, price = target^2 / 2^192 for token0.
        uint256 sellingToken0 = Math.mulDiv(Math.mulDiv(product, Q96, target), Q96, target);
        zeroForOne = sellingToken0 > reserve0 * reserve0;
        uint256 reserveIn = zeroForOne ? reserve0 : reserve1;
        uint256 goal = zeroForOne
            ? sellingToken0
            : Math.mulDiv(Math.mulDiv(product, target, Q96), target, Q96);
        if (goal <= reserveIn * reserveIn) return (zeroForOne, 0);
        uint256 root = Math.sqrt(
            1997 * 1997 * reserveIn * reserveIn + 4 * 997 * 1000 * (goal - reserveIn * reserveIn)
        );
        amountIn = (root - 1997 * reserveIn) / (2 * 997);
    }
}
