// SPDX-License-Identifier: GPL-2.0-or-later
pragma solidity =0.7.6;
pragma abicoder v2;

// QuoterV2's exact-input quotes for PancakeSwap V3 pools, for the altchain devnet (the npm
// packages ship QuoterV2's interface and libraries, not the contract). Same ABI as Uniswap's and
// PancakeSwap's QuoterV2: it runs the swap and reverts with the result from the callback.

import '@uniswap/v3-core/contracts/interfaces/IUniswapV3Pool.sol';
import '@uniswap/v3-core/contracts/libraries/SafeCast.sol';
import '@uniswap/v3-core/contracts/libraries/TickMath.sol';
import '@uniswap/v3-periphery/contracts/base/PeripheryImmutableState.sol';
import '@uniswap/v3-periphery/contracts/interfaces/IQuoterV2.sol';
import '@uniswap/v3-periphery/contracts/libraries/Path.sol';
import '@uniswap/v3-periphery/contracts/libraries/PoolTicksCounter.sol';
import '@pancakeswap/v3-core/contracts/interfaces/IPancakeV3Pool.sol';
import '@pancakeswap/v3-core/contracts/interfaces/callback/IPancakeV3SwapCallback.sol';
import '@pancakeswap/v3-periphery/contracts/libraries/CallbackValidation.sol';

contract PancakeQuoterV2 is IPancakeV3SwapCallback, PeripheryImmutableState {
    using Path for bytes;
    using SafeCast for uint256;

    /// @param deployer PancakeV3PoolDeployer: pools are found from it (it stands in `factory()`).
    constructor(address deployer, address _WETH9) PeripheryImmutableState(deployer, _WETH9) {}

    function getPool(
        address tokenA,
        address tokenB,
        uint24 fee
    ) private view returns (IPancakeV3Pool) {
        return IPancakeV3Pool(PoolAddress.computeAddress(factory, PoolAddress.getPoolKey(tokenA, tokenB, fee)));
    }

    function pancakeV3SwapCallback(
        int256 amount0Delta,
        int256 amount1Delta,
        bytes memory path
    ) external view override {
        require(amount0Delta > 0 || amount1Delta > 0);
        (address tokenIn, address tokenOut, uint24 fee) = path.decodeFirstPool();
        CallbackValidation.verifyCallback(factory, tokenIn, tokenOut, fee);
        (bool isExactInput, uint256 amountReceived) =
            amount0Delta > 0
                ? (tokenIn < tokenOut, uint256(-amount1Delta))
                : (tokenOut < tokenIn, uint256(-amount0Delta));
        require(isExactInput, 'exact input only');
        (uint160 sqrtPriceX96After, int24 tickAfter, , , , , ) = IPancakeV3Pool(msg.sender).slot0();
        assembly {
            let ptr := mload(0x40)
            mstore(ptr, amountReceived)
            mstore(add(ptr, 0x20), sqrtPriceX96After)
            mstore(add(ptr, 0x40), tickAfter)
            revert(ptr, 96)
        }
    }

    function parseRevertReason(bytes memory reason)
        private
        pure
        returns (
            uint256 amount,
            uint160 sqrtPriceX96After,
            int24 tickAfter
        )
    {
        if (reason.length != 96) {
            if (reason.length < 68) revert('Unexpected error');
            assembly {
                reason := add(reason, 0x04)
            }
            revert(abi.decode(reason, (string)));
        }
        return abi.decode(reason, (uint256, uint160, int24));
    }

    function quoteExactInputSingle(IQuoterV2.QuoteExactInputSingleParams memory params)
        public
        returns (
            uint256 amountOut,
            uint160 sqrtPriceX96After,
            uint32 initializedTicksCrossed,
            uint256 gasEstimate
        )
    {
        IPancakeV3Pool pool = getPool(params.tokenIn, params.tokenOut, params.fee);
        (, int24 tickBefore, , , , , ) = pool.slot0();
        uint256 gasBefore = gasleft();
        bytes memory reason = swapAndRevert(pool, params);
        gasEstimate = gasBefore - gasleft();
        int24 tickAfter;
        (amountOut, sqrtPriceX96After, tickAfter) = parseRevertReason(reason);
        initializedTicksCrossed = PoolTicksCounter.countInitializedTicksCrossed(
            IUniswapV3Pool(address(pool)),
            tickBefore,
            tickAfter
        );
    }

    /// @dev The callback always reverts, so the swap's revert data is the quote.
    function swapAndRevert(IPancakeV3Pool pool, IQuoterV2.QuoteExactInputSingleParams memory params)
        private
        returns (bytes memory reason)
    {
        bool zeroForOne = params.tokenIn < params.tokenOut;
        uint160 limit =
            params.sqrtPriceLimitX96 == 0
                ? (zeroForOne ? TickMath.MIN_SQRT_RATIO + 1 : TickMath.MAX_SQRT_RATIO - 1)
                : params.sqrtPriceLimitX96;
        try
            pool.swap(
                address(this),
                zeroForOne,
                params.amountIn.toInt256(),
                limit,
                abi.encodePacked(params.tokenIn, params.fee, params.tokenOut)
            )
        {
            revert('swap did not revert');
        } catch (bytes memory data) {
            reason = data;
        }
    }

    function quoteExactInput(bytes memory path, uint256 amountIn)
        public
        returns (
            uint256 amountOut,
            uint160[] memory sqrtPriceX96AfterList,
            uint32[] memory initializedTicksCrossedList,
            uint256 gasEstimate
        )
    {
        sqrtPriceX96AfterList = new uint160[](path.numPools());
        initializedTicksCrossedList = new uint32[](path.numPools());
        for (uint256 i = 0; ; i++) {
            (address tokenIn, address tokenOut, uint24 fee) = path.decodeFirstPool();
            (uint256 hopOut, uint160 sqrtPriceAfter, uint32 ticksCrossed, uint256 hopGas) =
                quoteExactInputSingle(
                    IQuoterV2.QuoteExactInputSingleParams({
                        tokenIn: tokenIn,
                        tokenOut: tokenOut,
                        fee: fee,
                        amountIn: amountIn,
                        sqrtPriceLimitX96: 0
                    })
                );
            sqrtPriceX96AfterList[i] = sqrtPriceAfter;
            initializedTicksCrossedList[i] = ticksCrossed;
            amountIn = hopOut;
            gasEstimate += hopGas;
            if (!path.hasMultiplePools()) return (amountIn, sqrtPriceX96AfterList, initializedTicksCrossedList, gasEstimate);
            path = path.skipToken();
        }
    }
}
