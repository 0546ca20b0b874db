// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {CatalogToken} from "./CatalogToken.sol";

// The token zoo of the local devnets (DECISIONS §7.2): tokens shaped like the awkward ones on
// mainnets. Same constructor as CatalogToken, so the deployment treats them alike.

/// @notice Shaped like USDT on Ethereum: transfer, transferFrom and approve return nothing, and
/// approve refuses to change a non-zero allowance to another non-zero value.
contract TetherStyleToken {
    string public name;
    string public symbol;
    uint8 public decimals;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(
        string memory name_,
        string memory symbol_,
        uint8 decimals_,
        uint256 initialSupply,
        address holder
    ) {
        name = name_;
        symbol = symbol_;
        decimals = decimals_;
        totalSupply = initialSupply;
        balanceOf[holder] = initialSupply;
        emit Transfer(address(0), holder, initialSupply);
    }

    function transfer(address to, uint256 value) external {
        move(msg.sender, to, value);
    }

    function transferFrom(address from, address to, uint256 value) external {
        uint256 allowed = allowance[from][msg.sender];
        require(allowed >= value, "allowance");
        if (allowed != type(uint256).max) allowance[from][msg.sender] = allowed - value;
        move(from, to, value);
    }

    function approve(address spender, uint256 value) external {
        require(value == 0 || allowance[msg.sender][spender] == 0, "reset the allowance to 0 first");
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
    }

    function move(address from, address to, uint256 value) private {
        require(to != address(0), "to the zero address");
        require(balanceOf[from] >= value, "balance");
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}

/// @notice Burns FEE_BPS of every transfer, transfers to and from pairs included: the receiver
/// gets the rest, the sender pays the full amount. Otherwise a CatalogToken.
contract FeeOnTransferToken is CatalogToken {
    uint256 public constant FEE_BPS = 300;

    constructor(string memory name_, string memory symbol_, uint8 decimals_, uint256 supply, address holder)
        CatalogToken(name_, symbol_, decimals_, supply, holder) {}

    function _update(address from, address to, uint256 value) internal override {
        if (from == address(0) || to == address(0)) return super._update(from, to, value);
        uint256 fee = (value * FEE_BPS) / 10_000;
        super._update(from, address(0), fee);
        super._update(from, to, value - fee);
    }
}
