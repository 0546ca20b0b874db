// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Permit.sol";

/// @notice CatalogToken with OpenZeppelin's EIP-2612 `permit` (as USDC has one on mainnet): an
/// allowance set by the holder's EIP-712 signature, so a swap's multicall can start with the
/// router's `selfPermit` instead of an approval transaction (DECISIONS §10.2). Same constructor
/// as CatalogToken; the EIP-712 domain is the token's name and version "1".
contract CatalogPermitToken is ERC20Permit {
    uint8 private immutable TOKEN_DECIMALS;

    constructor(
        string memory name_,
        string memory symbol_,
        uint8 decimals_,
        uint256 initialSupply,
        address holder
    ) ERC20(name_, symbol_) ERC20Permit(name_) {
        TOKEN_DECIMALS = decimals_;
        _mint(holder, initialSupply);
    }

    function decimals() public view override returns (uint8) {
        return TOKEN_DECIMALS;
    }
}
