/** A crawl-state-like document: a long frontier of small records, a seen list, nested model arrays. */
export function largeState(links: number) {
  return {
    version: 1,
    counters: { requests: links, targets: 3 },
    links: {
      nextId: links,
      seen: Array.from({ length: links }, (_, i) => `http://127.0.0.1:8080/en/stable/reference/page-${i}.html`),
      links: Array.from({ length: links }, (_, i) => [i, `http://127.0.0.1:8080/en/stable/reference/page-${i}.html`, i % 7, "", 0, null, i % 3 ? null : [1, 2]]),
    },
    classifier: { weights: Array.from({ length: 9000 }, (_, i) => Math.sin(i) / 3), bias: -0.25 },
    groups: Array.from({ length: 300 }, (_, g) => ({ id: g, centroid: Array.from({ length: 400 }, (_, i) => (g * i) % 17), members: Array.from({ length: 500 }, (_, i) => i * g) })),
  };
}
