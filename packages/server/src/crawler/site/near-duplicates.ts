/**
 * Near-duplicate search over 64-bit simhashes: every pair of pages at Hamming distance ≤ k,
 * excluding exact duplicates (same content key, reported apart), in time close to linear in the
 * number of pages.
 *
 * Pages with the same simhash are first merged into one node (a template-heavy site has large
 * groups of them: their pairs are counted by arithmetic, not one by one). Nodes are then found by
 * multi-index hashing: the 64 bits are cut into m blocks, and two hashes at distance ≤ k agree
 * exactly on at least m − k of them (pigeonhole), so one hash table per choice of m − k blocks
 * finds every pair. m is chosen per search to keep chance collisions few: with m = k + 1 (one
 * block per table, the former banded search) a block of 9 bits put about n / 512 pages in each
 * bucket, and the search grew with n² (20 s of a 100,000-page crawl's end). A pair met in several
 * tables is counted in the first one only, found from the blocks it agrees on.
 *
 * Exact for k ≤ MAX_EXACT_DISTANCE (thresholds ≥ 87.5 %). Above, a pair must also agree on two
 * of eight bytes, so some pairs at a large distance are missed (docs/decisions/near-duplicates.md).
 *
 * Capped where most pages are close to each other (variant or faceted pages of one template):
 * above EXACT_NODES distinct hashes, a run of nodes sharing a key longer than the cap (SEARCH_BUDGET
 * comparisons spread over the nodes and the sorts, at least MIN_RUN_CAP) compares each node with
 * the run's first ones (the earliest crawled) only, so the search stays linear however close the
 * pages are, and the counts of that run's pages are lower bounds (`atLeast`): the cluster is
 * reported, not every pair.
 */

/** Largest distance searched exactly; above it the search trades recall for linear time. */
export const MAX_EXACT_DISTANCE = 8;

export interface SimhashColumns {
  simHi: Uint32Array;
  simLo: Uint32Array;
  contentKey: Float64Array;
}

/** Up to this many distinct hashes, every run is compared in full (exact counts). */
export const EXACT_NODES = 10_000;
/** Above, the comparisons a search may spend on long runs, all sorts together. */
export const SEARCH_BUDGET = 100_000_000;
/** The smallest cap: the nodes of a long run each compared with at least this many. */
export const MIN_RUN_CAP = 8;

/**
 * For each page with near-duplicates: how many, and the smallest id among them (the example);
 * `atLeast` when the page was in a capped run, its count then a lower bound.
 */
export type NearDuplicateMatches = Map<number, { count: number; example: number; atLeast?: true }>;

function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

function distance(c: SimhashColumns, a: number, b: number): number {
  return popcount32((c.simHi[a] ^ c.simHi[b]) >>> 0) + popcount32((c.simLo[a] ^ c.simLo[b]) >>> 0);
}

/** Every pair compared: the reference the indexed search must agree with, and faster when few. */
export function nearDuplicatesPairwise(c: SimhashColumns, ids: ArrayLike<number>, maxDistance: number): NearDuplicateMatches {
  const out: NearDuplicateMatches = new Map();
  const note = (x: number, y: number) => {
    const m = out.get(x);
    if (!m) out.set(x, { count: 1, example: y });
    else {
      m.count++;
      if (y < m.example) m.example = y;
    }
  };
  for (let i = 0; i < ids.length; i++) {
    for (let j = i + 1; j < ids.length; j++) {
      const a = ids[i];
      const b = ids[j];
      if (c.contentKey[a] === c.contentKey[b] || distance(c, a, b) > maxDistance) continue;
      note(a, b);
      note(b, a);
    }
  }
  return out;
}

function binomial(n: number, k: number): number {
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return Math.round(r);
}

/** The blocks-per-hash m and blocks-per-key that keep the expected work lowest for `nodes` hashes. */
function plan(nodes: number, maxDistance: number): { blocks: number; keyBlocks: number } {
  if (maxDistance > MAX_EXACT_DISTANCE) return { blocks: 8, keyBlocks: 2 };
  let best = { blocks: maxDistance + 1, keyBlocks: 1, cost: Infinity };
  for (let m = maxDistance + 1; m <= Math.min(64, maxDistance + 8); m++) {
    const keyBlocks = m - maxDistance;
    const tables = binomial(m, keyBlocks);
    const keyBits = Math.floor((64 * keyBlocks) / m);
    // Each table: a key and a sort per node (about ten times a candidate's check, measured), plus
    // the pairs that share a key by chance.
    const cost = tables * (10 * nodes + (nodes * nodes) / 2 ** (keyBits + 1));
    if (cost < best.cost) best = { blocks: m, keyBlocks, cost };
  }
  return best;
}

/** All k-subsets of 0..m-1 in lexicographic order, as bit masks. */
function combinations(m: number, k: number): number[] {
  const out: number[] = [];
  const pick = (from: number, left: number, mask: number) => {
    if (left === 0) return void out.push(mask);
    for (let i = from; i <= m - left; i++) pick(i + 1, left - 1, mask | (1 << i));
  };
  pick(0, k, 0);
  return out;
}

/** The lexicographically first k-subset of `mask`: its k lowest set bits. */
function firstSubset(mask: number, k: number): number {
  let out = 0;
  for (let left = k; left > 0 && mask !== 0; left--) {
    const low = mask & -mask;
    out |= low;
    mask ^= low;
  }
  return out;
}

/** Near-duplicates of `ids` (ascending) at distance ≤ maxDistance: the pairwise answers for k ≤ MAX_EXACT_DISTANCE. */
export function nearDuplicatesIndexed(
  c: SimhashColumns,
  ids: ArrayLike<number>,
  maxDistance: number,
  /** Blocks per hash, instead of the cheapest for the site's size (tests reach every plan with it). */
  blocks?: number,
  /** Nodes of a run compared with every other; by default all up to EXACT_NODES nodes, then SEARCH_BUDGET / (nodes × sorts), at least MIN_RUN_CAP. */
  runCap?: number,
): NearDuplicateMatches {
  const n = ids.length;
  // 1. Nodes: one per distinct simhash, with its size and smallest member (ids ascend: its first).
  const nodeOf = new Int32Array(n);
  const nodeHi = new Uint32Array(n);
  const nodeLo = new Uint32Array(n);
  const nodeSize = new Int32Array(n);
  const nodeMin = new Int32Array(n);
  let nodes = 0;
  {
    const slots = slotCount(n);
    const shift = 32 - Math.log2(slots);
    const heads = new Int32Array(slots).fill(-1);
    const next = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const id = ids[i];
      const hi = c.simHi[id];
      const lo = c.simLo[id];
      const slot = mix(Math.imul(hi, 0x9e3779b1) ^ lo) >>> shift;
      let node = heads[slot];
      while (node !== -1 && (nodeHi[node] !== hi || nodeLo[node] !== lo)) node = next[node];
      if (node === -1) {
        node = nodes++;
        nodeHi[node] = hi;
        nodeLo[node] = lo;
        nodeMin[node] = id;
        next[node] = heads[slot];
        heads[slot] = node;
      }
      nodeSize[node]++;
      nodeOf[i] = node;
    }
  }

  // 2. Pairs of nodes within the distance: per node, the pages of its neighbours and their smallest id.
  const neighbours = new Float64Array(nodes);
  const neighbourMin = new Float64Array(nodes).fill(Infinity);
  const capped = new Uint8Array(nodes);
  if (maxDistance > 0 && nodes > 1) {
    const { blocks: m, keyBlocks } = blocks !== undefined && maxDistance <= MAX_EXACT_DISTANCE ? { blocks, keyBlocks: blocks - maxDistance } : plan(nodes, maxDistance);
    // Per block, its bits in each half: two hashes agree on block b when their XOR has none of them.
    const maskHi = new Uint32Array(m);
    const maskLo = new Uint32Array(m);
    for (let b = 0; b < m; b++) {
      for (let bit = Math.floor((64 * b) / m); bit < Math.floor((64 * (b + 1)) / m); bit++) {
        if (bit < 32) maskLo[b] |= 1 << bit;
        else maskHi[b] |= 1 << (bit - 32);
      }
    }
    const tables = combinations(m, keyBlocks);
    const cap = runCap ?? (nodes <= EXACT_NODES ? nodes : Math.max(MIN_RUN_CAP, Math.floor(SEARCH_BUDGET / (nodes * tables.length))));
    const keys = new Uint32Array(nodes);
    const order = new Uint32Array(nodes);
    const buffers = radixBuffers(nodes);
    for (const table of tables) {
      // The key: the chosen blocks' bits, hashed to 32 bits (a collision only adds a candidate).
      for (let v = 0; v < nodes; v++) {
        let h = 0;
        for (let b = 0; b < m; b++) if (table & (1 << b)) h = mix(h ^ (nodeHi[v] & maskHi[b]) ^ mix(nodeLo[v] & maskLo[b]));
        keys[v] = h;
      }
      // Sorted: `keys` in order, `order` the node of each.
      sortByKey(keys, order, buffers);
      // Runs of equal keys: the pairs within each run are the candidates of this table.
      for (let start = 0; start < nodes; ) {
        let end = start + 1;
        while (end < nodes && keys[end] === keys[start]) end++;
        // A long run: each node against the run's first `cap` (in node order: the earliest crawled).
        const anchors = end - start > cap ? start + cap : end;
        if (anchors < end) for (let i = start; i < end; i++) capped[order[i]] = 1;
        for (let i = start; i < end; i++) {
          const v = order[i];
          for (let j = i < anchors ? i + 1 : start; j < anchors; j++) {
            const o = order[j];
            const xHi = (nodeHi[v] ^ nodeHi[o]) >>> 0;
            const xLo = (nodeLo[v] ^ nodeLo[o]) >>> 0;
            if (popcount32(xHi) + popcount32(xLo) > maxDistance) continue;
            let agree = 0;
            for (let b = 0; b < m; b++) if ((xHi & maskHi[b]) === 0 && (xLo & maskLo[b]) === 0) agree |= 1 << b;
            // Not the same blocks (a key collision), or a pair met in an earlier table.
            if ((agree & table) !== table || firstSubset(agree, keyBlocks) !== table) continue;
            neighbours[v] += nodeSize[o];
            neighbours[o] += nodeSize[v];
            if (nodeMin[o] < neighbourMin[v]) neighbourMin[v] = nodeMin[o];
            if (nodeMin[v] < neighbourMin[o]) neighbourMin[o] = nodeMin[v];
          }
        }
        start = end;
      }
    }
  }

  // 3. Per page: its node's other members except its exact duplicates, and its node's neighbours.
  // Equal content means equal words, hence equal simhash: exact duplicates share a node.
  const sameContent = new Map<string, number>();
  const firstOther = new Map<number, { first: number; firstKey: number; second: number }>();
  for (let i = 0; i < n; i++) {
    const node = nodeOf[i];
    if (nodeSize[node] < 2) continue;
    const id = ids[i];
    const key = c.contentKey[id];
    const k = `${node} ${key}`;
    sameContent.set(k, (sameContent.get(k) ?? 0) + 1);
    const s = firstOther.get(node);
    if (!s) firstOther.set(node, { first: id, firstKey: key, second: Infinity });
    else if (s.second === Infinity && key !== s.firstKey) s.second = id;
  }
  const out: NearDuplicateMatches = new Map();
  for (let i = 0; i < n; i++) {
    const id = ids[i];
    const node = nodeOf[i];
    let count = neighbours[node];
    let example = neighbourMin[node];
    if (nodeSize[node] > 1) {
      const key = c.contentKey[id];
      count += nodeSize[node] - sameContent.get(`${node} ${key}`)!;
      const s = firstOther.get(node)!;
      const inNode = key !== s.firstKey ? s.first : s.second;
      if (inNode < example) example = inNode;
    }
    if (count > 0) out.set(id, capped[node] ? { count, example, atLeast: true } : { count, example });
  }
  return out;
}

/**
 * `order` ← 0..n-1 sorted by `keys` (and `keys` sorted): an LSD radix sort moving each key with
 * its index, so that every pass reads in sequence (a hash table's random probes cost several times
 * more on a large site). Digits of up to 16 bits, fewer on a small site.
 */
function sortByKey(keys: Uint32Array, order: Uint32Array, buffers: RadixBuffers): void {
  const n = keys.length;
  const { bits, counts } = buffers;
  const radix = 1 << bits;
  let inKeys = keys;
  let inOrder = buffers.orderB;
  let outKeys = buffers.keysB;
  let outOrder = order;
  for (let i = 0; i < n; i++) inOrder[i] = i;
  for (let shift = 0; shift < 32; shift += bits) {
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[((inKeys[i] >>> shift) & (radix - 1)) + 1]++;
    for (let r = 0; r < radix; r++) counts[r + 1] += counts[r];
    for (let i = 0; i < n; i++) {
      const at = counts[(inKeys[i] >>> shift) & (radix - 1)]++;
      outKeys[at] = inKeys[i];
      outOrder[at] = inOrder[i];
    }
    [inKeys, outKeys] = [outKeys, inKeys];
    [inOrder, outOrder] = [outOrder, inOrder];
  }
  if (inKeys !== keys) keys.set(inKeys);
  if (inOrder !== order) order.set(inOrder);
}

interface RadixBuffers {
  bits: number;
  keysB: Uint32Array;
  orderB: Uint32Array;
  counts: Uint32Array;
}

function radixBuffers(n: number): RadixBuffers {
  // Digits of 16, 11 or 8 bits (2, 3 or 4 passes): the count table stays small beside n.
  const bits = n >= 1 << 17 ? 16 : n >= 1 << 12 ? 11 : 8;
  return { bits, keysB: new Uint32Array(n), orderB: new Uint32Array(n), counts: new Uint32Array((1 << bits) + 1) };
}

/** murmur3's finaliser: every input bit moves the high bits, which pick the slot. */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** A power of two at least twice `n`: hash tables about half full. */
function slotCount(n: number): number {
  return 1 << Math.max(4, Math.ceil(Math.log2(2 * n + 1)));
}
