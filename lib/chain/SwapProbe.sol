// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface ISwapProbeToken {
    function balanceOf(address owner) external view returns (uint256);
}

interface ISwapProbeRouter {
    function getAmountsOut(
        uint256 amountIn,
        address[] calldata path
    ) external view returns (uint256[] memory amounts);

    function swapExactTokensForTokensSupportingFeeOnTransferTokens(
        uint256 amountIn,
        uint256 amountOutMin,
        address[] calldata path,
        address to,
        uint256 deadline
    ) external;

    function swapExactETHForTokensSupportingFeeOnTransferTokens(
        uint256 amountOutMin,
        address[] calldata path,
        address to,
        uint256 deadline
    ) external payable;

    function swapExactTokensForETHSupportingFeeOnTransferTokens(
        uint256 amountIn,
        uint256 amountOutMin,
        address[] calldata path,
        address to,
        uint256 deadline
    ) external;
}

/// @notice Never deployed. An eth_call places this runtime code at an unused address by state
/// override, with that address's balance of the input (token or native coin) overridden too,
/// and asks what `to` receives when the router swaps exactly `amountIn` along `path` with its
/// fee-on-transfer functions, which pay each pair what actually arrived: the real transfers,
/// fees and all, run in the call. It also returns the router's getAmountsOut on the same state,
/// so a difference (a fee on transfer) is seen without a second read. Its bytecode is in
/// swapProbe.ts (a test recompiles it).
contract SwapProbe {
    receive() external payable {}

    function simulate(
        address router,
        uint256 amountIn,
        address[] calldata path,
        bool nativeIn,
        bool nativeOut,
        address to
    ) external returns (uint256 quoted, uint256 received) {
        uint256[] memory amounts = ISwapProbeRouter(router).getAmountsOut(amountIn, path);
        quoted = amounts[amounts.length - 1];
        address tokenOut = path[path.length - 1];
        uint256 before = balance(tokenOut, nativeOut, to);
        if (nativeIn) {
            ISwapProbeRouter(router).swapExactETHForTokensSupportingFeeOnTransferTokens{
                value: amountIn
            }(0, path, to, block.timestamp);
        } else {
            require(
                ISwapProbeToken(path[0]).balanceOf(address(this)) >= amountIn,
                "input balance not overridden"
            );
            // Low-level, so a token whose approve returns nothing (USDT) is approved too.
            (bool approved, ) = path[0].call(
                abi.encodeWithSignature("approve(address,uint256)", router, amountIn)
            );
            require(approved, "approve refused");
            if (nativeOut) {
                ISwapProbeRouter(router).swapExactTokensForETHSupportingFeeOnTransferTokens(
                    amountIn, 0, path, to, block.timestamp
                );
            } else {
                ISwapProbeRouter(router).swapExactTokensForTokensSupportingFeeOnTransferTokens(
                    amountIn, 0, path, to, block.timestamp
                );
            }
        }
        received = balance(tokenOut, nativeOut, to) - before;
    }

    function balance(address token, bool native, address owner) private view returns (uint256) {
        return native ? owner.balance : ISwapProbeToken(token).balanceOf(owner);
    }
}
