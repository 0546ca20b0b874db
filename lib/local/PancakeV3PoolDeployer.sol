// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// PancakeSwap V3's pool deployer for a devnet: the surface PancakeV3Factory and the npm
// PancakeV3Pool expect (`deploy`, `parameters`), creating pools with CREATE2 from the npm pool's
// creation code, so pools land where PancakeSwap's POOL_INIT_CODE_HASH says. The npm package
// (pancakeswap v3-core) ships the pool's bytecode but not this contract; the code is held by a
// data contract (its runtime code is 0x00 then the pool's creation code), too big to embed here.
contract PancakeV3PoolDeployer {
    struct Parameters {
        address factory;
        address token0;
        address token1;
        uint24 fee;
        int24 tickSpacing;
    }

    /// @notice Read by the pool's constructor, set only while `deploy` runs.
    Parameters public parameters;
    address public factoryAddress;

    address private immutable owner;
    address private immutable poolCreationCode;

    event SetFactoryAddress(address indexed factory);

    constructor(address poolCreationCode_) {
        owner = msg.sender;
        poolCreationCode = poolCreationCode_;
    }

    /// @notice Once, by the deployer's owner: the factory is deployed after this contract.
    function setFactoryAddress(address factory) external {
        require(msg.sender == owner && factoryAddress == address(0), "not allowed");
        factoryAddress = factory;
        emit SetFactoryAddress(factory);
    }

    function deploy(
        address factory,
        address token0,
        address token1,
        uint24 fee,
        int24 tickSpacing
    ) external returns (address pool) {
        require(msg.sender == factoryAddress, "only factory");
        parameters = Parameters(factory, token0, token1, fee, tickSpacing);
        address holder = poolCreationCode;
        uint256 size = holder.code.length - 1;
        bytes memory initCode = new bytes(size);
        bytes32 salt = keccak256(abi.encode(token0, token1, fee));
        assembly {
            extcodecopy(holder, add(initCode, 32), 1, size)
            pool := create2(0, add(initCode, 32), size, salt)
        }
        require(pool != address(0), "pool not created");
        delete parameters;
    }
}
