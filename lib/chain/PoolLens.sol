// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IPoolLensV2Factory {
    function getPair(address tokenA, address tokenB) external view returns (address);
}

interface IPoolLensV3Factory {
    function getPool(address tokenA, address tokenB, uint24 fee) external view returns (address);
}

/// @notice Never deployed. An eth_call places this runtime code at an unused address by state
/// override and reads, in one call, the state of the pools a quote may route through: for each
/// lookup, the pool the factory names for a pair (V2) or a pair and fee (V3), and its reserves,
/// or its price, tick, in-range liquidity, tick spacing and the initialized ticks found scanning
/// the tick bitmap outward from the price, tick by tick. Each scan says how far it got (the
/// compressed ticks it covered, every initialized one among them listed), so a tick word denser
/// than the budget is read in part and its rest asked for by `page`, never skipped whole. Scans
/// stop when the call's gas runs low (keeping enough for the lookups still to come), so a pool
/// full of ticks costs its own reads, not the other pools'. Pools are read with low-level calls
/// that decode only the leading words, so PancakeSwap V3 (whose slot0 differs past the tick)
/// reads like Uniswap V3. Every bound is the caller's: words and ticks each way. Its bytecode is
/// in poolLens.ts (a test recompiles it).
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
        /// V3: the compressed ticks (tick / spacing) scanned, inclusive; every initialized tick
        /// among them is in `ticks`.
        int24 scannedLower;
        int24 scannedUpper;
        int24[] ticks;
        int128[] liquidityNets;
    }

    /// A scan to continue: from compressed tick `start` (inclusive), upward or downward.
    struct Page {
        address pool;
        int24 tickSpacing;
        int24 start;
        bool up;
    }

    struct PageState {
        /// The last compressed tick scanned (upward: the highest; downward: the lowest).
        int24 scanned;
        int24[] ticks;
        int128[] liquidityNets;
    }

    struct Found {
        int24[] ticks;
        int128[] nets;
        uint256 count;
    }

    int24 private constant MIN_TICK = -887272;
    int24 private constant MAX_TICK = 887272;
    /// Gas kept back for each lookup or page still to serve, and for returning the answer.
    uint256 private constant GAS_PER_PENDING = 40_000;
    uint256 private constant GAS_TO_RETURN = 150_000;

    function read(
        Lookup[] calldata lookups,
        uint256 wordsEachSide,
        uint256 ticksEachSide
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
                uint256 reserve = GAS_TO_RETURN + (lookups.length - i - 1) * GAS_PER_PENDING;
                readV3(states[i], pool, wordsEachSide, ticksEachSide, reserve);
            }
        }
    }

    function page(
        Page[] calldata pages,
        uint256 words,
        uint256 maxTicks
    ) external view returns (PageState[] memory states) {
        states = new PageState[](pages.length);
        for (uint256 i = 0; i < pages.length; i++) {
            Page calldata request = pages[i];
            Found memory found = Found(new int24[](maxTicks), new int128[](maxTicks), 0);
            uint256 reserve = GAS_TO_RETURN + (pages.length - i - 1) * GAS_PER_PENDING;
            states[i].scanned = scan(
                request.pool,
                request.start,
                request.up,
                request.tickSpacing,
                words,
                maxTicks,
                found,
                reserve
            );
            (states[i].ticks, states[i].liquidityNets) = trimmed(found);
        }
    }

    function readV3(
        PoolState memory state,
        address pool,
        uint256 wordsEachSide,
        uint256 ticksEachSide,
        uint256 reserve
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
        Found memory found = Found(
            new int24[](2 * ticksEachSide),
            new int128[](2 * ticksEachSide),
            0
        );
        // Downward from the price's own compressed tick (a swap down crosses it first), then
        // upward from the next: each way its own budget of ticks.
        state.scannedLower = scan(
            pool,
            compressed,
            false,
            state.tickSpacing,
            wordsEachSide,
            ticksEachSide,
            found,
            reserve
        );
        state.scannedUpper = scan(
            pool,
            compressed + 1,
            true,
            state.tickSpacing,
            wordsEachSide,
            found.count + ticksEachSide,
            found,
            reserve
        );
        (state.ticks, state.liquidityNets) = trimmed(found);
    }

    /// Scans the bitmap from compressed tick `start` (inclusive) one way, `words` bitmap words at
    /// most, appending initialized ticks until `found` holds `limit` or the gas left falls to
    /// `reserve`. Returns the last compressed tick covered: every initialized tick between
    /// `start` and it is in `found`. Past the end of the tick range it returns that end.
    function scan(
        address pool,
        int24 start,
        bool up,
        int24 tickSpacing,
        uint256 words,
        uint256 limit,
        Found memory found,
        uint256 reserve
    ) private view returns (int24) {
        Bounds memory bounds = Bounds(
            pool,
            int256(tickSpacing),
            int256(MIN_TICK) / int256(tickSpacing),
            int256(MAX_TICK) / int256(tickSpacing),
            limit,
            reserve
        );
        int256 at = int256(start);
        if (up && at > bounds.highest) return int24(bounds.highest);
        if (!up && at < bounds.lowest) return int24(bounds.lowest);
        for (uint256 word = 0; word < words; word++) {
            if (gasleft() < reserve) break;
            (bool stopped, int256 last) = up
                ? scanWordUp(bounds, at, found)
                : scanWordDown(bounds, at, found);
            if (stopped) return int24(last);
            if (up ? last >= bounds.highest : last <= bounds.lowest) {
                return int24(up ? bounds.highest : bounds.lowest);
            }
            at = up ? last + 1 : last - 1;
        }
        return int24(up ? at - 1 : at + 1);
    }

    struct Bounds {
        address pool;
        int256 spacing;
        /// The compressed ticks of MIN_TICK and MAX_TICK.
        int256 lowest;
        int256 highest;
        uint256 limit;
        uint256 reserve;
    }

    /// The word of `at`, from `at` up: (true, the last tick covered) when the budget stopped it,
    /// else (false, the word's last compressed tick).
    function scanWordUp(
        Bounds memory bounds,
        int256 at,
        Found memory found
    ) private view returns (bool, int256) {
        int256 wordPos = at >> 8;
        uint256 bitmap = bitmapWord(bounds.pool, wordPos);
        for (uint256 bit = uint256(at - wordPos * 256); bit < 256; bit++) {
            if ((bitmap >> bit) == 0) break;
            if ((bitmap >> bit) & 1 == 0) continue;
            int256 index = wordPos * 256 + int256(bit);
            if (found.count >= bounds.limit || gasleft() < bounds.reserve) return (true, index - 1);
            append(bounds.pool, found, index * bounds.spacing);
        }
        return (false, wordPos * 256 + 255);
    }

    /// The word of `at`, from `at` down: as scanWordUp, the word's first compressed tick.
    function scanWordDown(
        Bounds memory bounds,
        int256 at,
        Found memory found
    ) private view returns (bool, int256) {
        int256 wordPos = at >> 8;
        uint256 bitmap = bitmapWord(bounds.pool, wordPos);
        for (uint256 left = uint256(at - wordPos * 256) + 1; left > 0; left--) {
            uint256 bit = left - 1;
            if (bitmap << (255 - bit) == 0) break;
            if ((bitmap >> bit) & 1 == 0) continue;
            int256 index = wordPos * 256 + int256(bit);
            if (found.count >= bounds.limit || gasleft() < bounds.reserve) return (true, index + 1);
            append(bounds.pool, found, index * bounds.spacing);
        }
        return (false, wordPos * 256);
    }

    function bitmapWord(address pool, int256 wordPos) private view returns (uint256 bitmap) {
        // tickBitmap(int16)
        (bitmap, ) = words2(pool, abi.encodeWithSelector(0x5339c296, int16(wordPos)));
    }

    function append(address pool, Found memory found, int256 index) private view {
        // ticks(int24): liquidityGross, liquidityNet, ...
        (, uint256 net) = words2(pool, abi.encodeWithSelector(0xf30dba93, int24(index)));
        found.ticks[found.count] = int24(index);
        found.nets[found.count] = int128(int256(net));
        found.count++;
    }

    function trimmed(Found memory found) private pure returns (int24[] memory, int128[] memory) {
        int24[] memory ticks = found.ticks;
        int128[] memory nets = found.nets;
        uint256 count = found.count;
        assembly {
            mstore(ticks, count)
            mstore(nets, count)
        }
        return (ticks, nets);
    }

    /// The first two words a view returns (zeros when it reverts or returns less).
    function words2(address target, bytes memory data) private view returns (uint256 a, uint256 b) {
        (bool ok, bytes memory out) = target.staticcall(data);
        if (!ok) return (0, 0);
        if (out.length >= 32) a = abi.decode(out, (uint256));
        if (out.length >= 64) (, b) = abi.decode(out, (uint256, uint256));
    }
}
