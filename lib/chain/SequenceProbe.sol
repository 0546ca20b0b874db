// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// Placed by state override at the wallet's own address, inside eth_call only (the fallback of
/// lib/chain/simulate.ts for nodes without eth_simulateV1): runs the wallet's transactions in
/// order as the wallet (msg.sender of each call is the wallet) and reads the watched balances
/// and allowances before and after. Nothing it does outlives the call.
contract SequenceProbe {
    address private constant NATIVE = 0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE;

    struct Call {
        address to;
        uint256 value;
        bytes data;
    }

    /// `spender` zero: the holder's balance of `token` (the native sentinel: its coin balance);
    /// otherwise the allowance `holder` gave `spender`.
    struct Watch {
        address token;
        address holder;
        address spender;
    }

    /// `failed` is 0 when every call succeeded, else the failing call's index plus one, with its
    /// revert data in `revertData`; the later calls are not run.
    function run(Call[] calldata calls, Watch[] calldata watches)
        external
        returns (
            uint256[] memory gasUsed,
            uint256[] memory before,
            uint256[] memory afterwards,
            uint256 failed,
            bytes memory revertData
        )
    {
        before = read(watches);
        gasUsed = new uint256[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            uint256 start = gasleft();
            (bool ok, bytes memory data) = calls[i].to.call{value: calls[i].value}(calls[i].data);
            gasUsed[i] = start - gasleft();
            if (!ok) {
                return (gasUsed, before, read(watches), i + 1, data);
            }
        }
        afterwards = read(watches);
    }

    function read(Watch[] calldata watches) private view returns (uint256[] memory values) {
        values = new uint256[](watches.length);
        for (uint256 i = 0; i < watches.length; i++) {
            Watch calldata watch = watches[i];
            if (watch.token == NATIVE) {
                values[i] = watch.holder.balance;
            } else if (watch.spender == address(0)) {
                values[i] = IERC20(watch.token).balanceOf(watch.holder);
            } else {
                values[i] = IERC20(watch.token).allowance(watch.holder, watch.spender);
            }
        }
    }

    /// A refund or an unwrapped coin sent to the wallet lands here while the probe stands in.
    receive() external payable {}
}

interface IERC20 {
    function balanceOf(address holder) external view returns (uint256);

    function allowance(address holder, address spender) external view returns (uint256);
}
