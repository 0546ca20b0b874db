// SPDX-License-Identifier: GPL-2.0-or-later
pragma solidity =0.7.6;
pragma abicoder v2;

// SwapRouter02's exact-input surface for PancakeSwap V3 pools, for the altchain devnet. The npm
// packages ship SwapRouter02's bases, libraries and interfaces but not its top-level contracts,
// and Uniswap's bytecode cannot serve PancakeSwap pools (they call `pancakeV3SwapCallback`, and
// their addresses come from PancakeV3PoolDeployer and PancakeSwap's init code hash). So the swap
// functions are written here on those npm pieces, with SwapRouter02's ABI and conventions
// (MSG_SENDER/ADDRESS_THIS recipients, amountIn 0 = the router's balance, V2 amounts measured as
// balance changes so fee-on-transfer tokens work), its exact-output swaps (exactOutputSingle,
// exactOutput, swapTokensForExactTokens: DECISIONS §10.1) as V3SwapRouter and V2SwapRouter write
// them, and its SelfPermit (a permit swap's multicall starts with selfPermit, DECISIONS §10.2).
// approveAndCall is left out. On BNB Chain the configured router is PancakeSwap's SmartRouter.

import '@openzeppelin/contracts/token/ERC20/IERC20.sol';
import '@uniswap/v2-core/contracts/interfaces/IUniswapV2Pair.sol';
import '@uniswap/v3-core/contracts/libraries/SafeCast.sol';
import '@uniswap/v3-core/contracts/libraries/TickMath.sol';
import '@uniswap/v3-core/contracts/libraries/LowGasSafeMath.sol';
import '@uniswap/v3-periphery/contracts/libraries/Path.sol';
import '@uniswap/v3-periphery/contracts/base/PeripheryImmutableState.sol';
import '@uniswap/v3-periphery/contracts/base/SelfPermit.sol';
import '@uniswap/swap-router-contracts/contracts/base/ImmutableState.sol';
import '@uniswap/swap-router-contracts/contracts/base/MulticallExtended.sol';
import '@uniswap/swap-router-contracts/contracts/base/PeripheryPaymentsWithFeeExtended.sol';
import '@uniswap/swap-router-contracts/contracts/interfaces/IV3SwapRouter.sol';
import '@uniswap/swap-router-contracts/contracts/libraries/Constants.sol';
import '@uniswap/swap-router-contracts/contracts/libraries/UniswapV2Library.sol';
import '@pancakeswap/v3-core/contracts/interfaces/IPancakeV3Pool.sol';
import '@pancakeswap/v3-core/contracts/interfaces/callback/IPancakeV3SwapCallback.sol';
import '@pancakeswap/v3-periphery/contracts/libraries/CallbackValidation.sol';

contract PancakeSwapRouter02 is
    IPancakeV3SwapCallback,
    ImmutableState,
    PeripheryImmutableState,
    MulticallExtended,
    PeripheryPaymentsWithFeeExtended,
    SelfPermit
{
    using Path for bytes;
    using SafeCast for uint256;
    using LowGasSafeMath for uint256;

    struct SwapCallbackData {
        bytes path;
        address payer;
    }

    /// @dev An exact-output path's input, set by its last callback (V3SwapRouter's cache).
    uint256 private constant DEFAULT_AMOUNT_IN_CACHED = type(uint256).max;
    uint256 private amountInCached = DEFAULT_AMOUNT_IN_CACHED;

    /// @param deployer PancakeV3PoolDeployer: pools are found from it (it stands in `factory()`).
    constructor(
        address _factoryV2,
        address deployer,
        address _positionManager,
        address _WETH9
    ) ImmutableState(_factoryV2, _positionManager) PeripheryImmutableState(deployer, _WETH9) {}

    function pancakeV3SwapCallback(
        int256 amount0Delta,
        int256 amount1Delta,
        bytes calldata _data
    ) external override {
        require(amount0Delta > 0 || amount1Delta > 0);
        SwapCallbackData memory data = abi.decode(_data, (SwapCallbackData));
        (address tokenIn, address tokenOut, uint24 fee) = data.path.decodeFirstPool();
        CallbackValidation.verifyCallback(factory, tokenIn, tokenOut, fee);
        (bool isExactInput, uint256 amountToPay) =
            amount0Delta > 0
                ? (tokenIn < tokenOut, uint256(amount0Delta))
                : (tokenOut < tokenIn, uint256(amount1Delta));
        if (isExactInput) {
            pay(tokenIn, data.payer, msg.sender, amountToPay);
        } else if (data.path.hasMultiplePools()) {
            // Exact output runs the path backwards: the next pool pays this one.
            data.path = data.path.skipToken();
            exactOutputInternal(amountToPay, msg.sender, 0, data);
        } else {
            amountInCached = amountToPay;
            // Reversed path: `tokenOut` is the swap's input.
            pay(tokenOut, data.payer, msg.sender, amountToPay);
        }
    }

    function exactOutputSingle(IV3SwapRouter.ExactOutputSingleParams calldata params)
        external
        payable
        returns (uint256 amountIn)
    {
        amountIn = exactOutputInternal(
            params.amountOut,
            params.recipient,
            params.sqrtPriceLimitX96,
            SwapCallbackData({path: abi.encodePacked(params.tokenOut, params.fee, params.tokenIn), payer: msg.sender})
        );
        require(amountIn <= params.amountInMaximum, 'Too much requested');
        amountInCached = DEFAULT_AMOUNT_IN_CACHED;
    }

    function exactOutput(IV3SwapRouter.ExactOutputParams calldata params) external payable returns (uint256 amountIn) {
        exactOutputInternal(
            params.amountOut,
            params.recipient,
            0,
            SwapCallbackData({path: params.path, payer: msg.sender})
        );
        amountIn = amountInCached;
        require(amountIn <= params.amountInMaximum, 'Too much requested');
        amountInCached = DEFAULT_AMOUNT_IN_CACHED;
    }

    function swapTokensForExactTokens(
        uint256 amountOut,
        uint256 amountInMax,
        address[] calldata path,
        address to
    ) external payable returns (uint256 amountIn) {
        amountIn = UniswapV2Library.getAmountsIn(factoryV2, amountOut, path)[0];
        require(amountIn <= amountInMax, 'Too much requested');
        pay(path[0], msg.sender, UniswapV2Library.pairFor(factoryV2, path[0], path[1]), amountIn);
        swapV2(path, resolveRecipient(to));
    }

    function exactOutputInternal(
        uint256 amountOut,
        address recipient,
        uint160 sqrtPriceLimitX96,
        SwapCallbackData memory data
    ) private returns (uint256 amountIn) {
        recipient = resolveRecipient(recipient);
        (address tokenOut, address tokenIn, uint24 fee) = data.path.decodeFirstPool();
        bool zeroForOne = tokenIn < tokenOut;
        (int256 amount0Delta, int256 amount1Delta) =
            IPancakeV3Pool(PoolAddress.computeAddress(factory, PoolAddress.getPoolKey(tokenIn, tokenOut, fee)))
                .swap(
                recipient,
                zeroForOne,
                -amountOut.toInt256(),
                sqrtPriceLimitX96 == 0
                    ? (zeroForOne ? TickMath.MIN_SQRT_RATIO + 1 : TickMath.MAX_SQRT_RATIO - 1)
                    : sqrtPriceLimitX96,
                abi.encode(data)
            );
        uint256 amountOutReceived;
        (amountIn, amountOutReceived) = zeroForOne
            ? (uint256(amount0Delta), uint256(-amount1Delta))
            : (uint256(amount1Delta), uint256(-amount0Delta));
        // The whole amount, unless a price limit was set.
        if (sqrtPriceLimitX96 == 0) require(amountOutReceived == amountOut);
    }

    function exactInputSingle(IV3SwapRouter.ExactInputSingleParams memory params)
        external
        payable
        returns (uint256 amountOut)
    {
        address payer = msg.sender;
        if (params.amountIn == Constants.CONTRACT_BALANCE) {
            payer = address(this);
            params.amountIn = IERC20(params.tokenIn).balanceOf(address(this));
        }
        amountOut = exactInputInternal(
            params.amountIn,
            params.recipient,
            params.sqrtPriceLimitX96,
            SwapCallbackData({path: abi.encodePacked(params.tokenIn, params.fee, params.tokenOut), payer: payer})
        );
        require(amountOut >= params.amountOutMinimum, 'Too little received');
    }

    function exactInput(IV3SwapRouter.ExactInputParams memory params) external payable returns (uint256 amountOut) {
        address payer = msg.sender;
        if (params.amountIn == Constants.CONTRACT_BALANCE) {
            payer = address(this);
            (address tokenIn, , ) = params.path.decodeFirstPool();
            params.amountIn = IERC20(tokenIn).balanceOf(address(this));
        }
        while (true) {
            bool hasMultiplePools = params.path.hasMultiplePools();
            // Every hop but the last pays out to the router, which pays the next pool.
            params.amountIn = exactInputInternal(
                params.amountIn,
                hasMultiplePools ? address(this) : params.recipient,
                0,
                SwapCallbackData({path: params.path.getFirstPool(), payer: payer})
            );
            if (!hasMultiplePools) break;
            payer = address(this);
            params.path = params.path.skipToken();
        }
        amountOut = params.amountIn;
        require(amountOut >= params.amountOutMinimum, 'Too little received');
    }

    function swapExactTokensForTokens(
        uint256 amountIn,
        uint256 amountOutMin,
        address[] calldata path,
        address to
    ) external payable returns (uint256 amountOut) {
        address payer = msg.sender;
        if (amountIn == Constants.CONTRACT_BALANCE) {
            payer = address(this);
            amountIn = IERC20(path[0]).balanceOf(address(this));
        }
        pay(path[0], payer, UniswapV2Library.pairFor(factoryV2, path[0], path[1]), amountIn);
        to = resolveRecipient(to);
        IERC20 tokenOut = IERC20(path[path.length - 1]);
        uint256 balanceBefore = tokenOut.balanceOf(to);
        swapV2(path, to);
        amountOut = tokenOut.balanceOf(to).sub(balanceBefore);
        require(amountOut >= amountOutMin, 'Too little received');
    }

    function exactInputInternal(
        uint256 amountIn,
        address recipient,
        uint160 sqrtPriceLimitX96,
        SwapCallbackData memory data
    ) private returns (uint256 amountOut) {
        recipient = resolveRecipient(recipient);
        (address tokenIn, address tokenOut, uint24 fee) = data.path.decodeFirstPool();
        bool zeroForOne = tokenIn < tokenOut;
        (int256 amount0, int256 amount1) =
            IPancakeV3Pool(PoolAddress.computeAddress(factory, PoolAddress.getPoolKey(tokenIn, tokenOut, fee)))
                .swap(
                recipient,
                zeroForOne,
                amountIn.toInt256(),
                sqrtPriceLimitX96 == 0
                    ? (zeroForOne ? TickMath.MIN_SQRT_RATIO + 1 : TickMath.MAX_SQRT_RATIO - 1)
                    : sqrtPriceLimitX96,
                abi.encode(data)
            );
        return uint256(-(zeroForOne ? amount1 : amount0));
    }

    /// @dev Each pair is paid before it swaps; the input is what arrived (fee-on-transfer safe).
    function swapV2(address[] memory path, address recipient) private {
        for (uint256 i; i < path.length - 1; i++) {
            (address input, address output) = (path[i], path[i + 1]);
            (address token0, ) = UniswapV2Library.sortTokens(input, output);
            IUniswapV2Pair pair = IUniswapV2Pair(UniswapV2Library.pairFor(factoryV2, input, output));
            uint256 amountOutput;
            {
                (uint256 reserve0, uint256 reserve1, ) = pair.getReserves();
                (uint256 reserveInput, uint256 reserveOutput) =
                    input == token0 ? (reserve0, reserve1) : (reserve1, reserve0);
                uint256 amountInput = IERC20(input).balanceOf(address(pair)).sub(reserveInput);
                amountOutput = UniswapV2Library.getAmountOut(amountInput, reserveInput, reserveOutput);
            }
            (uint256 amount0Out, uint256 amount1Out) =
                input == token0 ? (uint256(0), amountOutput) : (amountOutput, uint256(0));
            address to = i < path.length - 2 ? UniswapV2Library.pairFor(factoryV2, output, path[i + 2]) : recipient;
            pair.swap(amount0Out, amount1Out, to, new bytes(0));
        }
    }

    function resolveRecipient(address recipient) private view returns (address) {
        if (recipient == Constants.MSG_SENDER) return msg.sender;
        if (recipient == Constants.ADDRESS_THIS) return address(this);
        return recipient;
    }
}
