// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// The OP Stack's GasPriceOracle as an L2-shaped devnet needs it (lib/local/l1FeeOracle.ts sets
/// it at the predeploy 0x420000000000000000000000000000000000000F with anvil_setCode): the
/// Ecotone L1 data fee of a transaction's bytes, with the L1 base fee, the blob base fee and
/// their scalars kept in its own storage (slots 0-3, written at startup with anvil_setStorageAt)
/// where the real one reads the L1Block predeploy. Same selectors and arithmetic as the real
/// contract's Ecotone branch (contracts-bedrock GasPriceOracle: _getL1FeeEcotone,
/// _getCalldataGas): a signature's 68 bytes are counted as non-zero on top of `_data`, the
/// unsigned transaction.
contract GasPriceOracle {
    uint256 public l1BaseFee;
    uint256 public blobBaseFee;
    // A slot each (the real L1Block packs them), so startup writes each with one setStorageAt.
    uint256 private baseFeeScalarSlot;
    uint256 private blobBaseFeeScalarSlot;

    uint256 public constant DECIMALS = 6;

    function decimals() external pure returns (uint256) {
        return DECIMALS;
    }

    function baseFeeScalar() public view returns (uint32) {
        return uint32(baseFeeScalarSlot);
    }

    function blobBaseFeeScalar() public view returns (uint32) {
        return uint32(blobBaseFeeScalarSlot);
    }

    function isEcotone() external pure returns (bool) {
        return true;
    }

    function isFjord() external pure returns (bool) {
        return false;
    }

    /// The L1 data fee, in wei, of an unsigned serialized transaction.
    function getL1Fee(bytes memory _data) external view returns (uint256) {
        return _fee(getL1GasUsed(_data));
    }

    /// At most the L1 data fee of an unsigned transaction of `_unsignedTxSize` bytes: every
    /// byte counted as non-zero.
    function getL1FeeUpperBound(uint256 _unsignedTxSize) external view returns (uint256) {
        return _fee((_unsignedTxSize + 68) * 16);
    }

    /// 4 gas a zero byte, 16 another, and 68 non-zero bytes for the signature.
    function getL1GasUsed(bytes memory _data) public pure returns (uint256) {
        uint256 total = 0;
        uint256 length = _data.length;
        for (uint256 i = 0; i < length; i++) {
            if (_data[i] == 0) {
                total += 4;
            } else {
                total += 16;
            }
        }
        return total + (68 * 16);
    }

    function _fee(uint256 _l1GasUsed) private view returns (uint256) {
        uint256 scaledBaseFee = uint256(baseFeeScalar()) * 16 * l1BaseFee;
        uint256 scaledBlobBaseFee = uint256(blobBaseFeeScalar()) * blobBaseFee;
        return (_l1GasUsed * (scaledBaseFee + scaledBlobBaseFee)) / (16 * 10 ** DECIMALS);
    }
}
