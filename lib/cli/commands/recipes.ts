import { request } from "undici";
import { loadConfig } from "../../config";
import { createAgent } from "../../crawler/fetch/network-safety";
import { DEFAULT_USER_AGENT } from "../../crawler/fetch/http-fetcher";
import { detectApplications, type FetchedText } from "../../recipes/detect-application";
import { loadRecipes, readRecipeFile, RecipeError } from "../../recipes/load-recipes";
import { CliUsageError } from "../cli-error";
import { parseOptions } from "../parse-options";

export const recipesHelp = "forage recipes list | forage recipes check FILE…   the knowledge base of web applications (docs/RECIPES.md)";
export const detectHelp = "forage detect URL [--allow-private-network]   which web application a site runs, with the evidence, in a few requests";

/** `forage recipes list` prints the recipes in force; `forage recipes check FILE…` validates files (exit 2 with the message on the first bad one). */
export async function recipesCommand(argv: string[]): Promise<number> {
  const [action, ...rest] = argv;
  if (action === "list") {
    parseOptions(rest, {});
    for (const { recipe, origin, replaces } of loadRecipesOrExplain()) {
      const where = origin === "shipped" ? "shipped" : `${origin}${replaces ? " (replaces the shipped one)" : ""}`;
      const actions = recipe.enumerations.map((e) => e.id).join(", ") || "no enumeration";
      console.log(`${recipe.id.padEnd(14)} ${recipe.name.padEnd(16)} ${actions}  [${where}]`);
    }
    return 0;
  }
  if (action === "check") {
    const { positionals } = parseOptions(rest, {}, { positionals: 100 });
    if (positionals.length === 0) throw new CliUsageError("name the recipe file(s) to check");
    for (const file of positionals) {
      try {
        const recipe = readRecipeFile(file);
        console.log(`${file}: a valid recipe for ${recipe.name} (${recipe.enumerations.length} enumeration(s), ${recipe.avoid.length} avoid pattern(s))`);
      } catch (error) {
        if (error instanceof RecipeError) throw new CliUsageError(error.message);
        throw error;
      }
    }
    return 0;
  }
  throw new CliUsageError(action ? `unknown action "${action}" (list or check)` : "say what to do: list or check");
}

/** A page or probe larger than this is cut: detection reads heads and small JSON answers. */
const MAX_BODY_BYTES = 2 * 1024 * 1024;
const MAX_REDIRECTS = 5;

export async function detectCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseOptions(argv, { "allow-private-network": { type: "boolean" } }, { positionals: 1 });
  const raw = positionals[0];
  if (!raw) throw new CliUsageError("name the site, e.g. forage detect https://data.example.org/");
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new CliUsageError(`"${raw}" is not a URL (write it with http:// or https://)`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new CliUsageError(`"${raw}" is not an http(s) URL`);
  const agent = createAgent({ allowPrivateNetwork: values["allow-private-network"] ?? false, connectTimeoutMs: 10_000, headersTimeoutMs: 15_000, bodyTimeoutMs: 15_000 });
  try {
    const report = await detectApplications(url.href, loadRecipesOrExplain().map((r) => r.recipe), (target) => fetchText(target, agent));
    console.log(`${report.pageUrl}: ${report.detections.length === 0 ? "no known application recognised" : `${report.detections.length} application(s) recognised`} (${report.requests} request(s))`);
    for (const detection of report.detections) {
      const version = detection.version ? ` ${detection.version}` : "";
      console.log(`  ${detection.recipe.name}${version} at ${detection.base}`);
      console.log(`    signs: ${detection.evidence.join("; ")}`);
      const probe = detection.probe;
      const probeText =
        probe.state === "confirmed" ? `confirmed by ${probe.url}` : probe.state === "signs-only" ? "no probe in the recipe" : `${probe.url} ${probe.detail}`;
      console.log(`    probe: ${probeText}`);
      if (probe.state === "confirmed") console.log(`    actions: ${detection.recipe.enumerations.map((e) => e.name).join("; ") || "none"}`);
    }
    return 0;
  } finally {
    await agent.close();
  }
}

function loadRecipesOrExplain() {
  try {
    return loadRecipes(loadConfig().recipesDir ?? undefined);
  } catch (error) {
    if (error instanceof RecipeError) throw new CliUsageError(error.message);
    throw error;
  }
}

/** GET with redirects followed by hand (each hop through the same agent, so the same network policy), body cut at MAX_BODY_BYTES. */
async function fetchText(target: string, agent: ReturnType<typeof createAgent>): Promise<FetchedText> {
  let current = target;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const answer = await request(current, { dispatcher: agent, method: "GET", headers: { "user-agent": DEFAULT_USER_AGENT, accept: "text/html,application/json;q=0.9,*/*;q=0.5" } });
    const headers: Array<[string, string]> = [];
    for (const [name, value] of Object.entries(answer.headers)) {
      for (const one of Array.isArray(value) ? value : [value]) if (one !== undefined) headers.push([name, String(one)]);
    }
    const location = answer.headers.location;
    if (answer.statusCode >= 300 && answer.statusCode < 400 && typeof location === "string") {
      await answer.body.dump();
      current = new URL(location, current).href;
      continue;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of answer.body as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= MAX_BODY_BYTES) {
        answer.body.destroy();
        break;
      }
    }
    return { status: answer.statusCode, headers, body: Buffer.concat(chunks).subarray(0, MAX_BODY_BYTES).toString("utf8"), url: current };
  }
  throw new Error(`more than ${MAX_REDIRECTS} redirects from ${target}`);
}
