// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @notice Demo ERC-20 for the local devnets: each catalog token carries its own metadata.
contract CatalogToken is ERC20 {
    uint8 private immutable TOKEN_DECIMALS;

    constructor(
        string memory name_,
        string memory symbol_,
        uint8 decimals_,
        uint256 initialSupply,
        address holder
    ) ERC20(name_, symbol_) {
        TOKEN_DECIMALS = decimals_;
        _mint(holder, initialSupply);
    }

    function decimals() public view override returns (uint8) {
        return TOKEN_DECIMALS;
    }
}
