import type { Prng } from "../../prng";
import { QNetwork, type QNetworkOptions, type QNetworkState } from "./tres-q-network";

/**
 * Double deep Q-learning (van Hasselt et al., as TRES trains its agent): an online network
 * chooses, a target network (a copy synced every `syncEvery` updates) evaluates, and every
 * update replays a minibatch drawn by the crawl's PRNG from a ring buffer of transitions:
 *   y = r + γ · Q_target(s', argmax_{a'} Q_online(s', a'))   (y = r when s' offers no action)
 * A transition is one pull: the vector of the link crawled, its reward, and the vectors of a few
 * of the links its page added (the actions the pull opened).
 */

export interface DdqnOptions extends QNetworkOptions {
  readonly inputs: number;
  readonly hidden: number;
  readonly discount: number;
  readonly replayCapacity: number;
  readonly batchSize: number;
  /** Updates between two copies of the online network into the target network. */
  readonly syncEvery: number;
}

export interface Transition {
  readonly x: Float64Array;
  readonly reward: number;
  /** Vectors of the next state's actions (possibly none: a terminal pull). */
  readonly next: readonly Float64Array[];
}

export interface DdqnState {
  readonly online: QNetworkState;
  readonly target: QNetworkState;
  readonly replay: [x: number[], reward: number, next: number[][]][];
  /** Where the ring buffer writes next, once full. */
  readonly cursor: number;
  readonly updates: number;
}

export class Ddqn {
  private replay: Transition[] = [];
  private cursor = 0;
  private updates = 0;

  private constructor(
    private readonly options: DdqnOptions,
    readonly online: QNetwork,
    readonly target: QNetwork,
  ) {}

  static create(options: DdqnOptions, prng: Prng): Ddqn {
    const online = QNetwork.create(options.inputs, options.hidden, prng, options);
    const target = QNetwork.create(options.inputs, options.hidden, prng, options);
    target.copyWeightsFrom(online);
    return new Ddqn(options, online, target);
  }

  static fromState(state: DdqnState, options: DdqnOptions): Ddqn {
    if (!state || !Array.isArray(state.replay)) throw new TypeError("Invalid DDQN state: no replay buffer");
    const ddqn = new Ddqn(options, QNetwork.fromState(state.online, options), QNetwork.fromState(state.target, options));
    ddqn.replay = state.replay.map(([x, reward, next]) => ({ x: Float64Array.from(x), reward, next: next.map((a) => Float64Array.from(a)) }));
    ddqn.cursor = state.cursor;
    ddqn.updates = state.updates;
    return ddqn;
  }

  toState(): DdqnState {
    return {
      online: this.online.toState(),
      target: this.target.toState(),
      replay: this.replay.map((t) => [Array.from(t.x), t.reward, t.next.map((a) => Array.from(a))]),
      cursor: this.cursor,
      updates: this.updates,
    };
  }

  get replaySize(): number {
    return this.replay.length;
  }

  get updateCount(): number {
    return this.updates;
  }

  /** Q of an action vector by the online network (the agent's greedy choice). */
  value(x: ArrayLike<number>): number {
    return this.online.predict(x);
  }

  remember(transition: Transition): void {
    if (this.replay.length < this.options.replayCapacity) {
      this.replay.push(transition);
      return;
    }
    this.replay[this.cursor] = transition;
    this.cursor = (this.cursor + 1) % this.options.replayCapacity;
  }

  /** The double-Q target of one transition. */
  targetOf(transition: Transition): number {
    if (transition.next.length === 0) return transition.reward;
    let best = transition.next[0]!;
    let bestValue = this.online.predict(best);
    for (let i = 1; i < transition.next.length; i++) {
      const value = this.online.predict(transition.next[i]!);
      if (value > bestValue) {
        bestValue = value;
        best = transition.next[i]!;
      }
    }
    return transition.reward + this.options.discount * this.target.predict(best);
  }

  /** One minibatch update once the buffer holds a batch; returns its loss, or null when it waited. */
  update(prng: Prng): number | null {
    if (this.replay.length < this.options.batchSize) return null;
    const xs: Float64Array[] = [];
    const ys: number[] = [];
    for (let k = 0; k < this.options.batchSize; k++) {
      const transition = this.replay[prng.nextInt(this.replay.length)]!;
      xs.push(transition.x);
      ys.push(this.targetOf(transition));
    }
    const loss = this.online.train(xs, ys);
    this.updates += 1;
    if (this.updates % this.options.syncEvery === 0) this.target.copyWeightsFrom(this.online);
    return loss;
  }
}
