/**
 * Tag paths are long (`/html/body/div.page-wrapper#main/div.container/section.results/ul.list/li/a`)
 * and their informative part is the end: the list and the link. The shortened form keeps the
 * last steps, elides the middle with "…", and trims long class lists inside a step.
 */

const MAX_STEP_CHARS = 28;

export function tagPathSteps(tagPath: string): string[] {
  return tagPath.split("/").filter((step) => step.length > 0);
}

/** `div.btn btn-primary download-link#x` → `div.btn…#x` when the step is too long to read at a glance. */
export function shortenStep(step: string, maxChars = MAX_STEP_CHARS): string {
  if (step.length <= maxChars) return step;
  const match = /^([^.#]+)(?:\.([^#]*))?(?:#(.*))?$/.exec(step);
  if (!match) return `${step.slice(0, maxChars - 1)}…`;
  const [, tag = "", classes = "", id] = match;
  const firstClass = classes.split(" ").filter(Boolean)[0];
  const idPart = id ? `#${id.length > 16 ? `${id.slice(0, 15)}…` : id}` : "";
  const classPart = firstClass ? `.${firstClass.length > 16 ? firstClass.slice(0, 15) : firstClass}…` : "";
  return `${tag}${classPart}${idPart}`;
}

const hasClassOrId = (step: string) => /[.#]/.test(step);

/**
 * Keeps the last `keep` steps (4, or 3 when four are still too long) and elides the rest:
 * `/html/body/div.a/div.b/ul.c/li/a` → `…/div.b/ul.c/li/a`. When the kept steps are bare tags
 * (`tbody/tr/td/a`), the nearest ancestor with a class or id is kept too, since it is what
 * tells one list from another: `…/table.downloads/tbody/tr/td/a`. Short paths come back unchanged.
 */
export function shortenTagPath(tagPath: string, { keep = 4, maxChars = 56 }: { keep?: number; maxChars?: number } = {}): string {
  const steps = tagPathSteps(tagPath);
  if (tagPath.length <= maxChars) return tagPath;
  const build = (count: number) => {
    let start = steps.length - count;
    const tail = steps.slice(start);
    const anchorAt = tail.slice(0, -1).some(hasClassOrId) ? -1 : steps.slice(0, start).findLastIndex(hasClassOrId);
    const parts: string[] = [];
    if (anchorAt > 1) {
      parts.push(steps[anchorAt] ?? "");
      if (anchorAt < start - 1) parts.push("…");
      start = anchorAt;
    }
    parts.push(...tail);
    const text = parts.map((step) => (step === "…" ? step : shortenStep(step))).join("/");
    return start > 0 ? `…/${text}` : `/${text}`;
  };
  const four = build(keep);
  return four.length <= maxChars || keep <= 3 ? four : build(keep - 1);
}
