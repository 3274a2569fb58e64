/**
 * Documentation site: the API reference part of the model. Modules hold functions and
 * classes, classes hold methods; each has a page from the autosummary era on
 * (`reference/api/<dotted name>`). Objects appear in later versions or are removed,
 * and one module (`compat`) is dropped in the development version.
 */
import { Rng } from "../random";
import { unevenSplit } from "./common";
import { AUTOSUMMARY_ORD, ORD_COUNT, type ApiModule, type ApiObject, type Doc } from "./docs-model";
import { className, functionName, methodName, MODULES, SUBMODULES, type Project } from "./docs-text";

/** Adds a document under `parent` and returns its id. */
export type AddDoc = (parent: number, d: Omit<Doc, "parent" | "children" | "section">) => number;

/** Version ordinal an object first appears in (most date from the oldest kept version). */
function drawSince(r: Rng, floor: number): number {
  const x = r.float();
  const s = x < 0.6 ? 0 : x < 0.72 ? 1 : x < 0.84 ? 2 : x < 0.93 ? 3 : 4;
  return Math.max(floor, s);
}

/** Ordinal an object is removed at (ORD_COUNT when it still exists). */
function drawUntil(r: Rng, since: number): number {
  if (since > 2 || !r.chance(0.04)) return ORD_COUNT;
  return r.chance(0.5) ? 3 : 4;
}

/**
 * Adds modules and objects under the reference section `refDoc`, about `budget` object
 * pages in the development version.
 */
export function addApi(add: AddDoc, rng: Rng, project: Project, refDoc: number, budget: number): { modules: ApiModule[]; objects: ApiObject[] } {
  const moduleCount = Math.min(MODULES.length * (1 + SUBMODULES.length), Math.max(3, Math.round(2 + Math.sqrt(budget) / 2.2)));
  // The core modules come first, then a random choice of the others.
  const core = [0, 1, 2, 4, 9];
  const rest = MODULES.map((_, i) => i).filter((i) => !core.includes(i));
  for (let i = rest.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [rest[i], rest[j]] = [rest[j]!, rest[i]!];
  }
  // Very large APIs add subpackages (`io.formats`, `stats.tests`…) once the top-level names run out.
  const chosen = [...core, ...rest];
  for (let k = 0; chosen.length < moduleCount; k++) chosen.push(MODULES.length * (1 + Math.floor(k / MODULES.length)) + (k % MODULES.length));
  chosen.length = moduleCount;
  const shares = unevenSplit(rng, Math.max(moduleCount, budget), moduleCount);
  const modules: ApiModule[] = [];
  const objects: ApiObject[] = [];
  const used = new Set<string>();
  /** A name not used yet under `base` (a numeric suffix when the vocabulary runs out). */
  const unique = (base: string, make: () => string, sep: string): string => {
    let name = make();
    for (let k = 0; used.has(`${base}.${name}`) && k < 20; k++) name = make();
    if (used.has(`${base}.${name}`)) {
      let k = 2;
      while (used.has(`${base}.${name}${sep}${k}`)) k++;
      name = `${name}${sep}${k}`;
    }
    used.add(`${base}.${name}`);
    return name;
  };

  const addModule = (short: string, title: string, since: number, until: number, pages: number) => {
    const full = `${project.name}.${short}`;
    const mi = modules.length;
    const doc = add(refDoc, { kind: "module", name: `reference/${short}`, oldName: null, renamedAt: 0, since, until, title, ref: mi });
    modules.push({ short, full, title, since, until, doc });
    const errors = short === "errors";
    let left = pages;
    while (left > 0) {
      const isClass = errors || (left >= 4 && rng.chance(0.35));
      const oSince = drawSince(rng, since);
      const oUntil = Math.min(until, drawUntil(rng, oSince));
      const shortName = unique(full, () => (isClass ? className(rng, errors) : functionName(rng)), isClass ? "" : "_");
      const id = objects.length;
      const kind = isClass ? "class" : "function";
      const oFull = `${full}.${shortName}`;
      const oDoc = add(doc, {
        kind, name: `reference/api/${oFull}`, oldName: null, renamedAt: 0, since: Math.max(oSince, AUTOSUMMARY_ORD), until: oUntil, title: oFull, ref: id,
      });
      objects.push({ kind, module: mi, owner: -1, short: shortName, full: oFull, since: oSince, until: oUntil, doc: oDoc });
      left--;
      if (!isClass || errors) continue;
      const methods = Math.min(left, Math.round(rng.logUniform(3, 45)));
      for (let k = 0; k < methods; k++) {
        const mSince = Math.max(oSince, rng.chance(0.8) ? oSince : drawSince(rng, oSince));
        const mUntil = Math.min(oUntil, drawUntil(rng, mSince));
        const mShort = unique(oFull, () => methodName(rng), "_");
        const mFull = `${oFull}.${mShort}`;
        const mDoc = add(oDoc, {
          kind: "method", name: `reference/api/${mFull}`, oldName: null, renamedAt: 0, since: Math.max(mSince, AUTOSUMMARY_ORD), until: mUntil, title: mFull, ref: objects.length,
        });
        objects.push({ kind: "method", module: mi, owner: id, short: mShort, full: mFull, since: mSince, until: mUntil, doc: mDoc });
      }
      left -= methods;
    }
  };

  chosen.forEach((code, k) => {
    const [base, baseTitle] = MODULES[code % MODULES.length]!;
    const sub = Math.floor(code / MODULES.length) - 1;
    const short = sub < 0 ? base : `${base}.${SUBMODULES[sub]}`;
    const title = sub < 0 ? baseTitle : `${baseTitle}: ${SUBMODULES[sub]}`;
    const since = k < 3 ? 0 : rng.chance(0.7) ? 0 : 1 + rng.int(ORD_COUNT - 1);
    addModule(short, title, since, ORD_COUNT, shares[k]!);
  });
  // Compatibility shims for Python 2-era APIs, removed in the development version.
  addModule("compat", "Compatibility helpers", 0, ORD_COUNT - 1, 2 + rng.int(4));
  return { modules, objects };
}
