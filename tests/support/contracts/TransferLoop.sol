// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// A dust flood as an attacker sends one (issue 32): `count` real `transfer(to, value)` calls to a
/// token this contract holds, in one transaction. The call is encoded once and sent from the same
/// memory each time (Solidity would take new memory per call, whose cost grows with the square of
/// its size), so each transfer costs the same, about 3,760 gas.
contract TransferLoop {
    function spray(address token, address to, uint256 value, uint256 count) external {
        assembly {
            let call_ := mload(0x40)
            mstore(call_, shl(224, 0xa9059cbb))
            mstore(add(call_, 4), to)
            mstore(add(call_, 36), value)
            for { let i := 0 } lt(i, count) { i := add(i, 1) } {
                if iszero(call(gas(), token, 0, call_, 68, 0, 32)) { revert(0, 0) }
            }
        }
    }
}
