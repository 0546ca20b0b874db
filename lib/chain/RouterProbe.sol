// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IRouterProbeToken {
    function balanceOf(address owner) external view returns (uint256);
}

/// @notice Never deployed. An eth_call places this runtime code at an unused address by state
/// override, with its balance of the input (token or native coin) overridden too, and runs the
/// exact router call a swap would send (a SwapRouter02 multicall: V2 and V3 legs, splits, native
/// wrapping), so every transfer, fee and tick crossed is the chain's own; it returns what `to`
/// received and what the router returned (the multicall's results: each swap call's output).
/// Its bytecode is in routerProbe.ts (a test recompiles it).
contract RouterProbe {
    receive() external payable {}

    function simulate(
        address router,
        address tokenIn,
        uint256 amountIn,
        bool nativeIn,
        address tokenOut,
        bool nativeOut,
        address to,
        bytes calldata routerCall
    ) external returns (uint256 received, bytes memory results) {
        uint256 before = balance(tokenOut, nativeOut, to);
        if (!nativeIn) {
            require(
                IRouterProbeToken(tokenIn).balanceOf(address(this)) >= amountIn,
                "input balance not overridden"
            );
            // Low-level, so a token whose approve returns nothing (USDT) is approved too.
            (bool approved, ) = tokenIn.call(
                abi.encodeWithSignature("approve(address,uint256)", router, amountIn)
            );
            require(approved, "approve refused");
        }
        (bool ok, bytes memory result) = router.call{value: nativeIn ? amountIn : 0}(routerCall);
        if (!ok) {
            assembly {
                revert(add(result, 32), mload(result))
            }
        }
        received = balance(tokenOut, nativeOut, to) - before;
        results = result;
    }

    function balance(address token, bool native, address owner) private view returns (uint256) {
        return native ? owner.balance : IRouterProbeToken(token).balanceOf(owner);
    }
}
