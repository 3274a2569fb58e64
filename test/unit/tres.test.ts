import { describe, expect, it } from "vitest";
import { testCrawlConfig } from "../helpers/crawl-fixtures";
import { Prng } from "../../lib/crawler/prng";
import type { FrontierLink } from "../../lib/crawler/engine/types";
import { restoreStrategy, StrategyStateError } from "../../lib/crawler/engine/strategies/restore-strategy";
import { LinkTable } from "../../lib/crawler/engine/link-table";
import { Ddqn } from "../../lib/crawler/engine/strategies/tres-ddqn";
import { pageContext, TRES_FEATURES, tresFeatures } from "../../lib/crawler/engine/strategies/tres-features";
import { QNetwork } from "../../lib/crawler/engine/strategies/tres-q-network";
import { TresStrategy, tresEpsilon, type TresState } from "../../lib/crawler/engine/strategies/tres-strategy";
import { TreeFrontier, type TreeFrontierOptions } from "../../lib/crawler/engine/strategies/tres-tree-frontier";

const NETWORK = { learningRate: 0.01, huberDelta: 10 };

/** Every link the tests create, by id: what the engine's link table is to a restored strategy. */
const registry = new Map<number, FrontierLink>();

function link(id: number, url: string, referrer: string | null = "http://site.test/", tagPath = "/html/body/div/ul/li/a", depth = 1): FrontierLink {
  const created = { id, url, tagPath, anchorText: "", depth, referrer, groupId: null };
  registry.set(id, created);
  return created;
}

describe("QNetwork", () => {
  it("computes Q by hand: one ReLU hidden layer, linear output", () => {
    const network = QNetwork.create(2, 2, Prng.fromSeed(1), NETWORK);
    // W1 = [[1, -1], [0.5, 2]], b1 = [0, -1], w2 = [2, 3], b2 = 0.25
    network.weights.set([1, -1, 0.5, 2, 0, -1, 2, 3, 0.25]);
    // x = (3, 1): hidden = relu(3 − 1) = 2, relu(1.5 + 2 − 1) = 2.5 → 2·2 + 3·2.5 + 0.25
    expect(network.predict([3, 1])).toBeCloseTo(11.75, 12);
    // x = (0, 1): hidden = relu(−1) = 0, relu(2 − 1) = 1 → 3 + 0.25 (the dead unit adds nothing)
    expect(network.predict([0, 1])).toBeCloseTo(3.25, 12);
  });

  it("learns a toy function from minibatches (Adam on the Huber loss)", () => {
    const prng = Prng.fromSeed(7);
    const network = QNetwork.create(4, 32, prng, NETWORK);
    const truth = (x: number[]) => 2 * x[0]! - x[1]! + (x[2]! > 0.5 ? 1 : 0);
    const sample = () => Array.from({ length: 4 }, () => prng.next());
    const test = Array.from({ length: 200 }, sample);
    const error = () => test.reduce((sum, x) => sum + (network.predict(x) - truth(x)) ** 2, 0) / test.length;
    const before = error();
    for (let step = 0; step < 3000; step++) {
      const xs = Array.from({ length: 16 }, sample);
      network.train(xs, xs.map(truth));
    }
    expect(before).toBeGreaterThan(0.3);
    expect(error()).toBeLessThan(0.02);
  });

  it("refuses a state whose weights do not fit its shape, naming the shape", () => {
    const state = QNetwork.create(3, 4, Prng.fromSeed(1), NETWORK).toState();
    expect(() => QNetwork.fromState({ ...state, weights: [1, 2] }, NETWORK)).toThrow("expected 21 weights and Adam moments for 3 inputs and 4 hidden units");
  });
});

describe("Ddqn", () => {
  const options = { ...NETWORK, inputs: 2, hidden: 2, discount: 0.8, replayCapacity: 3, batchSize: 2, syncEvery: 2 };

  it("takes the next action the online network prefers, valued by the target network", () => {
    const ddqn = Ddqn.create(options, Prng.fromSeed(3));
    ddqn.online.weights.set([1, 0, 0, 0, 0, 0, 1, 0, 0]); // Q_online(x) = relu(x0)
    ddqn.target.weights.set([0, 1, 0, 0, 0, 0, 1, 0, 0]); // Q_target(x) = relu(x1)
    const next = [Float64Array.from([1, 9]), Float64Array.from([2, 7])];
    // Online prefers (2, 7); the target values it 7 (plain DQN's max over the target would take 9).
    expect(ddqn.targetOf({ x: Float64Array.from([0, 0]), reward: 1.5, next })).toBeCloseTo(1.5 + 0.8 * 7, 12);
    expect(ddqn.targetOf({ x: Float64Array.from([0, 0]), reward: 1.5, next: [] })).toBe(1.5);
  });

  it("waits for a batch, keeps a bounded replay buffer and syncs the target network every syncEvery updates", () => {
    const prng = Prng.fromSeed(5);
    const ddqn = Ddqn.create(options, prng);
    const transition = (r: number) => ({ x: Float64Array.from([r, 1]), reward: r, next: [] });
    ddqn.remember(transition(1));
    expect(ddqn.update(prng)).toBeNull();
    for (const r of [2, 3, 4]) ddqn.remember(transition(r));
    expect(ddqn.replaySize).toBe(3);
    expect(ddqn.toState().replay.map(([x]) => x[0])).toEqual([4, 2, 3]);
    expect(ddqn.update(prng)).not.toBeNull();
    expect(Array.from(ddqn.target.weights)).not.toEqual(Array.from(ddqn.online.weights));
    ddqn.update(prng);
    expect(ddqn.updateCount).toBe(2);
    expect(Array.from(ddqn.target.weights)).toEqual(Array.from(ddqn.online.weights));
  });
});

describe("TreeFrontier", () => {
  const options: TreeFrontierOptions = { maxLeaves: 4, minSamplesToSplit: 8, minSamplesPerSide: 2, minGain: 0.5, maxSamplesPerLeaf: 64, retrySplitEvery: 1 };
  const vector = (...values: number[]) => Float64Array.from(values);

  it("finds the split of least squared error by hand", () => {
    // Feature 1 separates y = 2 from y = 0; feature 0 is noise.
    const samples = [
      { x: vector(0, 0), y: 0 },
      { x: vector(1, 0), y: 0 },
      { x: vector(0, 1), y: 2 },
      { x: vector(1, 1), y: 2 },
    ];
    // Parent error Σy² − (Σy)²/n = 8 − 16/4 = 4; both children pure: gain 4.
    expect(TreeFrontier.bestSplit(samples, options)).toEqual({ feature: 1, threshold: 0.5, gain: 4 });
    expect(TreeFrontier.bestSplit(samples, { ...options, minGain: 4.5 })).toBeNull();
    expect(TreeFrontier.bestSplit(samples, { ...options, minSamplesPerSide: 3 })).toBeNull();
  });

  it("splits a leaf once it holds enough experience, its frontier links following their side, and represents each leaf by one link", () => {
    const vectors = new Map<number, Float64Array>();
    const tree = new TreeFrontier(options, (l) => vectors.get(l.id)!);
    for (let id = 0; id < 10; id++) {
      vectors.set(id, vector(id % 2, 0.5));
      tree.add(link(id, `http://site.test/${id}`));
    }
    for (let k = 0; k < 7; k++) tree.addExperience(vector(k % 2, 0), k % 2 ? 3 : 0);
    expect(tree.leafCount()).toBe(1);
    tree.addExperience(vector(1, 0), 3);
    expect(tree.leafCount()).toBe(2);
    expect(tree.size()).toBe(10);

    const prng = Prng.fromSeed(9);
    const representatives = tree.representatives(prng);
    expect(representatives.map((r) => r.leaf)).toEqual([0, 1]);
    expect(representatives.map((r) => r.link.id % 2)).toEqual([0, 1]);
    const taken = tree.take(representatives[1]!);
    expect(taken.id % 2).toBe(1);
    expect(tree.size()).toBe(9);

    // Empty leaves are not represented.
    for (let k = 0; k < 4; k++) tree.take(tree.representatives(prng)[1]!);
    expect(tree.representatives(prng).map((r) => r.leaf)).toEqual([0]);
  });

  it("never grows past maxLeaves", () => {
    const tree = new TreeFrontier({ ...options, maxLeaves: 3 }, () => vector(0, 0, 0));
    const prng = Prng.fromSeed(2);
    for (let k = 0; k < 400; k++) {
      const x = vector(prng.next(), prng.next(), prng.next());
      tree.addExperience(x, x[0]! * 4 + x[1]! * 2 + x[2]!);
    }
    expect(tree.leafCount()).toBe(3);
  });
});

describe("TRES features", () => {
  it("reads the path (parent, grandparent, distance from the last rewarding page) and the link", () => {
    const grandparent = pageContext(0, 40, undefined);
    const parent = pageContext(3, 12, grandparent);
    expect(parent).toEqual({ reward: 3, parentReward: 0, distance: 0, outlinks: 12 });
    expect(pageContext(0, 5, parent).distance).toBe(1);
    const x = tresFeatures(link(1, "http://site.test/data/list?page=2", "http://site.test/data/index.html"), parent);
    expect(x).toHaveLength(TRES_FEATURES);
    expect(x[0]).toBe(Math.round((Math.log1p(3) / 4) * 64) / 64);
    expect([x[1], x[5], x[8], x[9], x[12], x[16]]).toEqual([1, 1, 1, 1, 1, 1]);
    expect([...x].every((value) => value >= 0 && value <= 1)).toBe(true);
    // One tag-path bucket and one URL-shape bucket are set.
    expect([...x.slice(18, 30)].filter((v) => v === 1)).toHaveLength(1);
    expect([...x.slice(30, 40)].filter((v) => v === 1)).toHaveLength(1);
  });
});

const SECTIONS = ["news", "about", "stats", "events", "jobs", "press", "blog", "help"];

/**
 * A site in memory: eight named section pages each list 10 pages; only the pages of /stats give
 * targets (5 each). A strategy is driven as the engine drives it: next, add the page's
 * links, feedback.
 */
function drive(strategy: TresStrategy, pulls: number, startId = 1000): string[] {
  const chosen: string[] = [];
  let id = startId;
  for (let k = 0; k < pulls; k++) {
    const next = strategy.next();
    if (!next) break;
    chosen.push(next.url);
    const path = new URL(next.url).pathname;
    const section = /^\/([a-z]+)$/.exec(path);
    if (section) for (let j = 0; j < 10; j++) strategy.add(link(id++, `http://site.test/${section[1]}/p${j}`, next.url, "/html/body/ul/li/a", 2));
    const reward = path.startsWith("/stats/") ? 5 : 0;
    strategy.feedback(next, { reward, wasHtml: true });
  }
  return chosen;
}

function seeded(seed: number, prng = Prng.fromSeed(seed)): TresStrategy {
  const strategy = new TresStrategy(prng);
  SECTIONS.forEach((name, i) => strategy.add(link(i, `http://site.test/${name}`, "http://site.test/", "/html/body/nav/a")));
  return strategy;
}

describe("TresStrategy", () => {
  it("ε decays from 0.5 towards 0.05", () => {
    expect(tresEpsilon(0)).toBe(0.5);
    expect(tresEpsilon(100)).toBeCloseTo(0.05 + 0.45 * 0.98 ** 100, 12);
    expect(tresEpsilon(10_000)).toBeCloseTo(0.05, 6);
  });

  it("makes the same choices from the same seed, other choices from another", () => {
    const a = drive(seeded(42), 60);
    expect(drive(seeded(42), 60)).toEqual(a);
    expect(drive(seeded(43), 60)).not.toEqual(a);
  });

  it("learns to prefer the links of the rewarding section", () => {
    // 88 links, 10 of them /stats/ pages: a strategy blind to their value finds the last one
    // after about 81 pulls on average (the last of 10 among 88).
    const seeds = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    const lastFound = seeds.map((seed) => drive(seeded(seed), 88).findLastIndex((url) => url.includes("/stats/p")) + 1);
    const mean = lastFound.reduce((sum, n) => sum + n, 0) / seeds.length;
    expect(mean, lastFound.join(" ")).toBeLessThanOrEqual(60);
  });

  it("resumes from its JSON state with the same later choices", () => {
    const whole = seeded(5);
    const before = drive(whole, 25);
    const rest = drive(whole, 40, 5000);

    const prng = Prng.fromSeed(5);
    const interrupted = seeded(5, prng);
    expect(drive(interrupted, 25)).toEqual(before);
    const state = JSON.parse(JSON.stringify(interrupted.toState())) as TresState;
    const restoredPrng = Prng.fromState(JSON.parse(JSON.stringify(prng.toState())));
    const restored = new TresStrategy(restoredPrng, { state, link: (id) => registry.get(id)! });
    expect(restored.size()).toBe(interrupted.size());
    expect(JSON.stringify(restored.toState())).toBe(JSON.stringify(state));
    expect(drive(restored, 40, 5000)).toEqual(rest);
  });

  it("refuses a malformed checkpoint with a clear error", () => {
    const config = testCrawlConfig({ rootUrl: "http://site.test/", strategy: "tres" });
    expect(() => restoreStrategy(config, Prng.fromSeed(1), new LinkTable(), { tree: { root: { leaf: 3, links: [], samples: [], fresh: 0 }, leaves: 1 } })).toThrow(StrategyStateError);
    expect(() => restoreStrategy(config, Prng.fromSeed(1), new LinkTable(), { tree: { root: { leaf: 3, links: [], samples: [], fresh: 0 }, leaves: 1 } })).toThrow("Invalid tres state: Invalid Tree-Frontier state: leaf index 3");
  });
});
