// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IPoolLensV2Factory {
    function getPair(address tokenA, address tokenB) external view returns (address);
}

interface IPoolLensV3Factory {
    function getPool(address tokenA, address tokenB, uint24 fee) external view returns (address);
}

/// @notice Never deployed. An eth_call places this runtime code at an unused address by state
/// override and reads, in one call, the state of the pools the quote may route through: for each
/// lookup, the pool the factory names for a pair (V2) or a pair and fee (V3), and its reserves,
/// or its price, tick, in-range liquidity, tick spacing and the initialized ticks of the bitmap
/// words around the price. Pools are read with low-level calls that decode only the leading
/// words, so PancakeSwap V3 (whose slot0 differs past the tick) reads like Uniswap V3. Every
/// bound is the caller's: words each side, ticks per pool. Its bytecode is in poolLens.ts (a
/// test recompiles it).
contract PoolLens {
    struct Lookup {
        /// 2 or 3.
        uint8 version;
        address factory;
        address tokenA;
        address tokenB;
        /// V3 only.
        uint24 fee;
    }

    struct PoolState {
        address pool;
        address token0;
        /// V2: the reserves. V3: reserve0 = sqrtPriceX96, reserve1 = in-range liquidity.
        uint256 reserve0;
        uint256 reserve1;
        int24 tick;
        int24 tickSpacing;
        /// The bitmap words whose every initialized tick is in `ticks` (inclusive).
        int16 wordLower;
        int16 wordUpper;
        int24[] ticks;
        int128[] liquidityNets;
    }

    function read(
        Lookup[] calldata lookups,
        uint256 wordsEachSide,
        uint256 maxTicksPerPool
    ) external view returns (PoolState[] memory states) {
        states = new PoolState[](lookups.length);
        for (uint256 i = 0; i < lookups.length; i++) {
            Lookup calldata lookup = lookups[i];
            address pool = lookup.version == 2
                ? IPoolLensV2Factory(lookup.factory).getPair(lookup.tokenA, lookup.tokenB)
                : IPoolLensV3Factory(lookup.factory).getPool(lookup.tokenA, lookup.tokenB, lookup.fee);
            if (pool == address(0) || pool.code.length == 0) continue;
            states[i].pool = pool;
            states[i].token0 = lookup.tokenA < lookup.tokenB ? lookup.tokenA : lookup.tokenB;
            if (lookup.version == 2) {
                (states[i].reserve0, states[i].reserve1) = words2(pool, hex"0902f1ac");
            } else {
                readV3(states[i], pool, wordsEachSide, maxTicksPerPool);
            }
        }
    }

    function readV3(
        PoolState memory state,
        address pool,
        uint256 wordsEachSide,
        uint256 maxTicksPerPool
    ) private view {
        (uint256 sqrtPrice, uint256 tickWord) = words2(pool, hex"3850c7bd"); // slot0()
        state.reserve0 = sqrtPrice;
        state.tick = int24(int256(tickWord));
        (state.reserve1, ) = words2(pool, hex"1a686502"); // liquidity()
        (uint256 spacingWord, ) = words2(pool, hex"d0c93a7c"); // tickSpacing()
        state.tickSpacing = int24(int256(spacingWord));
        if (state.tickSpacing <= 0) return;
        int24 compressed = state.tick / state.tickSpacing;
        if (state.tick < 0 && state.tick % state.tickSpacing != 0) compressed--;
        int16 center = int16(compressed >> 8);
        Found memory found = Found(new int24[](maxTicksPerPool), new int128[](maxTicksPerPool), 0);
        // An empty range until the price's word is read (lower > upper).
        state.wordLower = center + 1;
        state.wordUpper = center;
        // The price's word, then outward one word each side at a time, while ticks fit; a word
        // is given whole or not at all.
        for (uint256 distance = 0; distance <= wordsEachSide; distance++) {
            int256 lower = int256(center) - int256(distance);
            if (lower >= type(int16).min) {
                if (!readWord(pool, int16(lower), state.tickSpacing, found)) break;
                state.wordLower = int16(lower);
                if (distance == 0) state.wordUpper = int16(lower);
            }
            int256 upper = int256(center) + int256(distance);
            if (distance > 0 && upper <= type(int16).max) {
                if (!readWord(pool, int16(upper), state.tickSpacing, found)) break;
                state.wordUpper = int16(upper);
            }
        }
        int24[] memory ticks = found.ticks;
        int128[] memory nets = found.nets;
        uint256 count = found.count;
        assembly {
            mstore(ticks, count)
            mstore(nets, count)
        }
        state.ticks = ticks;
        state.liquidityNets = nets;
    }

    struct Found {
        int24[] ticks;
        int128[] nets;
        uint256 count;
    }

    /// Appends the initialized ticks of one bitmap word; false (nothing appended) when they
    /// do not all fit.
    function readWord(
        address pool,
        int16 wordPos,
        int24 tickSpacing,
        Found memory found
    ) private view returns (bool) {
        (uint256 bitmap, ) = words2(pool, abi.encodeWithSelector(0x5339c296, wordPos)); // tickBitmap(int16)
        uint256 count = found.count;
        for (uint256 bit = 0; bitmap != 0; bit++) {
            if (bitmap & (1 << bit) == 0) continue;
            bitmap &= ~(1 << bit);
            if (count == found.ticks.length) return false;
            int24 index = int24((int256(wordPos) * 256 + int256(bit)) * int256(tickSpacing));
            (, uint256 net) = words2(pool, abi.encodeWithSelector(0xf30dba93, index)); // ticks(int24)
            found.ticks[count] = index;
            found.nets[count] = int128(int256(net));
            count++;
        }
        found.count = count;
        return true;
    }

    /// The first two words a view returns (zeros when it reverts or returns less).
    function words2(address target, bytes memory data) private view returns (uint256 a, uint256 b) {
        (bool ok, bytes memory out) = target.staticcall(data);
        if (!ok) return (0, 0);
        if (out.length >= 32) a = abi.decode(out, (uint256));
        if (out.length >= 64) (, b) = abi.decode(out, (uint256, uint256));
    }
}
