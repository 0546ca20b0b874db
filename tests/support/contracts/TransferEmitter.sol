// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// Emits ERC-20 `Transfer` events and moves nothing: a stranger's spam or address-poisoning
/// contract, or, listed in a test's catalog, a token whose transfers come in bursts.
contract TransferEmitter {
    event Transfer(address indexed from, address indexed to, uint256 value);

    function decimals() external pure returns (uint8) {
        return 18;
    }

    /// `count` events from `from` of `value` each: all to `to`, or to `to`, `to + 1`, ... when
    /// `spread`.
    function emitTransfers(address from, address to, uint256 value, uint256 count, bool spread)
        external
    {
        uint160 next = uint160(to);
        for (uint256 i = 0; i < count; ++i) {
            emit Transfer(from, address(next), value);
            if (spread) ++next;
        }
    }
}

/// One block of a mainnet-shaped stream in one transaction: transfer `i` on token
/// `tokens[i % tokens.length]`, to `recipients[i]`.
contract TransferStream {
    function emitEach(
        TransferEmitter[] calldata tokens,
        address from,
        address[] calldata recipients,
        uint256 value
    ) external {
        for (uint256 i = 0; i < recipients.length; ++i) {
            tokens[i % tokens.length].emitTransfers(from, recipients[i], value, 1, false);
        }
    }
}
