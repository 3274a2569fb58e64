/** Round axis ticks: the charts' y axes read 0, 500, 1,000… and 0, 256 MB, 512 MB…, never 858 MB. */

const STEPS = [1, 2, 2.5, 5, 10];

/** Ticks from 0 to at least `max` with a round step, about `count` of them. */
export function niceTicks(max: number, count = 5): number[] {
  if (!(max > 0)) return [0, 1];
  const rough = max / (count - 1);
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = (STEPS.find((s) => s * magnitude >= rough) ?? 10) * magnitude;
  const top = Math.ceil(max / step) * step;
  return Array.from({ length: Math.round(top / step) + 1 }, (_, i) => Number((i * step).toPrecision(12)));
}

/** Byte ticks in whole binary units (KB, MB, GB as lib/format.ts prints them). */
export function byteTicks(maxBytes: number, count = 5): number[] {
  let unit = 1;
  while (maxBytes / unit >= 1024 && unit < 1024 ** 4) unit *= 1024;
  return niceTicks(maxBytes / unit, count).map((tick) => tick * unit);
}

/** Decades covering [min, max] for a log axis: 0.001, 0.01, 0.1, 1. */
export function decadeTicks(min: number, max: number): number[] {
  const ticks: number[] = [];
  for (let e = Math.floor(Math.log10(min)); e <= Math.ceil(Math.log10(max)); e++) ticks.push(Number((10 ** e).toPrecision(6)));
  return ticks;
}
