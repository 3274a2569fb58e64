/**
 * Wiki vocabulary: the wiki's name, its topical areas (which decide how many data
 * files an article carries and in which formats), title generators per area, user
 * names and file names. Titles are ASCII; a few carry parentheses, commas or an
 * apostrophe, as real page names do, so URL encoding matters.
 */
import type { FormatName } from "../formats";
import type { Rng } from "../random";
import { TOPIC_COUNT, topicName } from "../text";

export const WIKI_SITE_NAME = "StatWiki";
/** The project namespace is named after the wiki (`Project:` is an alias). */
export const PROJECT_NS = "StatWiki";

/** A topical area: a portal article, a category, and articles of one kind. */
export interface WikiArea {
  /** Portal article and category name. */
  name: string;
  /** Share of the articles. */
  weight: number;
  /** Probability that an article of the area has data or document files. */
  fileRate: number;
  /** Most files one article carries (at least one when it has any). */
  maxFiles: number;
  formats: ReadonlyArray<readonly [FormatName, number]>;
  /** Probability of an illustration (chart, map, photo). */
  imageRate: number;
  title: (rng: Rng, topic: string, year: number) => string;
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
export const MONTH_NAMES: readonly string[] = MONTHS;

const BREAKDOWNS = ["by region", "by age and sex", "by industry", "by municipality", "by household type", "by education level", "by country of birth"];
const CLASSIFICATIONS = ["NACE Rev. 2", "ISCO-08", "ISCED 2011", "COICOP 2018", "NUTS 2021", "CPA 2.1", "ICD-10", "LAU 2020", "SITC Rev. 4", "HS 2022"];
const TOOLS = ["JDemetra+", "Tau-Argus", "Blaise", "ReGenesees", "SDMX converter", "Rtrim", "Sampling toolkit", "Editing rules engine"];
const REGION_STEMS = ["North", "South", "East", "West", "Upper", "Lower", "Great", "Old"];
const REGION_TAILS = ["moor", "vale", "field", "ford", "haven", "bury", "dale", "wick", "mere", "ton"];

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export const WIKI_AREAS: readonly WikiArea[] = [
  {
    name: "Datasets", weight: 0.22, fileRate: 0.92, maxFiles: 12,
    formats: [["csv", 3], ["xlsx", 3], ["zip", 1.5], ["ods", 1], ["xls", 1], ["txt", 0.4]], imageRate: 0.3,
    title: (r, t, y) => r.pick([`${t} ${r.pick(BREAKDOWNS)}`, `${t} ${r.pick(BREAKDOWNS)} (${y})`, `${t} microdata ${y}`, `${t} time series`, `${t} panel data`]),
  },
  {
    name: "Publications", weight: 0.15, fileRate: 0.85, maxFiles: 4,
    formats: [["pdf", 6], ["docx", 1], ["doc", 0.5], ["xlsx", 0.6]], imageRate: 0.15,
    title: (r, t, y) => r.pick([`Statistical yearbook ${y}`, `Working paper ${y}/${String(1 + r.int(20)).padStart(2, "0")}`, `${t} in figures, ${y}`, `${t} report ${y}`, `Annual review of ${t.toLowerCase()} (${y})`]),
  },
  {
    name: "Methodology", weight: 0.12, fileRate: 0.35, maxFiles: 2,
    formats: [["pdf", 4], ["docx", 1], ["xlsx", 0.5]], imageRate: 0.2,
    title: (r, t) => r.pick([`Seasonal adjustment of ${t.toLowerCase()} series`, `Sampling design of the ${t.toLowerCase()} survey`, `Quality report: ${t.toLowerCase()}`, `Imputation methods for ${t.toLowerCase()}`, `${t} index methodology`]),
  },
  {
    name: "Classifications", weight: 0.07, fileRate: 0.55, maxFiles: 3,
    formats: [["xlsx", 3], ["csv", 2], ["pdf", 1]], imageRate: 0,
    title: (r, t, y) => r.pick([r.pick(CLASSIFICATIONS), `${t} classification`, `Correspondence table ${r.pick(CLASSIFICATIONS)} (${y})`]),
  },
  {
    name: "Surveys", weight: 0.1, fileRate: 0.45, maxFiles: 3,
    formats: [["pdf", 3], ["docx", 1], ["xlsx", 1]], imageRate: 0.1,
    title: (r, t, y) => r.pick([`${t} survey`, `${t} survey ${y}`, `Pilot survey on ${t.toLowerCase()}`]),
  },
  {
    name: "Meetings", weight: 0.1, fileRate: 0.6, maxFiles: 4,
    formats: [["pdf", 4], ["docx", 1.5], ["doc", 1], ["odt", 0.3]], imageRate: 0.05,
    title: (r, t, y) => `Working group on ${t.toLowerCase()}, ${r.pick(MONTHS)} ${y}`,
  },
  {
    name: "Projects", weight: 0.09, fileRate: 0.15, maxFiles: 2,
    formats: [["pdf", 1], ["zip", 1]], imageRate: 0.3,
    title: (r, t, y) => r.pick([`${t} modernisation project`, `ESSnet on ${t.toLowerCase()}`, `${t} register project (${y})`]),
  },
  {
    name: "Regions", weight: 0.11, fileRate: 0.12, maxFiles: 2,
    formats: [["xlsx", 2], ["pdf", 1]], imageRate: 0.7,
    title: (r) => `${r.pick(REGION_STEMS)}${r.pick(REGION_TAILS)}`,
  },
  {
    name: "Software", weight: 0.07, fileRate: 0.35, maxFiles: 2,
    formats: [["zip", 3], ["pdf", 1]], imageRate: 0.2,
    title: (r, t) => r.pick([`${r.pick(TOOLS)} (software)`, `${r.pick(TOOLS)} user's guide`, `R package for ${t.toLowerCase()}`]),
  },
];

/** A topic ("Housing") drawn from the shared vocabulary. */
export function wikiTopic(rng: Rng): string {
  return topicName(rng.int(TOPIC_COUNT));
}

/** A glossary term ("Median household income"). */
export function glossaryTerm(rng: Rng): string {
  const t = wikiTopic(rng).toLowerCase();
  return cap(rng.pick([`median ${t}`, `${t} rate`, `${t} index`, `gross ${t}`, `${t} (definition)`, `${t} per capita`, `net ${t}`]));
}

const GIVEN = ["Anna", "Ben", "Carla", "David", "Elena", "Farid", "Grete", "Hugo", "Ines", "Jonas", "Katja", "Luca", "Marta", "Nils", "Olga", "Pavel", "Rosa", "Sven", "Tove", "Yusuf"];
const SURNAMES = ["Keller", "Novak", "Lindqvist", "Moreau", "Santos", "Horvath", "Jensen", "Ricci", "Kowalski", "Becker", "Murphy", "Dubois", "Virtanen", "Popescu", "Schmidt", "Costa"];

/** A user name as people pick them ("Anna Keller", "Jnovak", "Moreau.l"). */
export function userName(rng: Rng): string {
  const g = rng.pick(GIVEN);
  const s = rng.pick(SURNAMES);
  const form = rng.int(4);
  return form === 0 ? `${g} ${s}` : form === 1 ? `${g.charAt(0)}${s.toLowerCase()}` : form === 2 ? `${s}.${g.charAt(0).toLowerCase()}` : `${g}${s.charAt(0)}`;
}

/** Bots and administrators every community wiki has. */
export const FIXED_USERS = ["WikiSysop", "UploadBot", "Maintenance script"];

/** A file name (spaces, as MediaWiki displays it) for a file of `format` belonging to `title`. */
export function fileName(rng: Rng, title: string, format: FormatName, k: number): string {
  const stem = title.replace(/[^A-Za-z0-9 ]+/g, "").replace(/ +/g, " ").trim();
  const short = stem.split(" ").slice(0, 4).join(" ");
  const ext = format;
  switch (format) {
    case "pdf":
    case "doc":
    case "docx":
    case "odt":
      return `${short} ${rng.pick(["report", "slides", "minutes", "annex", "note", "questionnaire", "final"])}${k > 0 ? ` ${k + 1}` : ""}.${ext}`;
    case "zip":
      return `${short.replace(/ /g, "_")}_${rng.pick(["all_files", "code", "bundle", "tables"])}${k > 0 ? `_${k + 1}` : ""}.${ext}`;
    case "txt":
      return `${short} README${k > 0 ? ` ${k + 1}` : ""}.txt`;
    default:
      return `${short} ${rng.pick(["table", "data", "series", "extract", "tables"])} ${2008 + rng.int(16)}${k > 0 ? `-${k + 1}` : ""}.${ext}`;
  }
}

/** An illustration's name ("Housing chart 2019.png", "Northmoor map.png"). */
export function imageName(rng: Rng, title: string, k: number): string {
  const short = title.replace(/[^A-Za-z0-9 ]+/g, "").split(" ").slice(0, 3).join(" ");
  const kind = rng.pick(["chart", "map", "diagram", "photo"]);
  return `${short} ${kind}${k > 0 ? ` ${k + 1}` : ""}.${kind === "photo" ? "jpg" : "png"}`;
}

/** Help pages every MediaWiki ships with or writes first. */
export const HELP_PAGES = ["Contents", "Editing", "Uploading files", "Categories", "Templates", "Searching"];

/** Project (`StatWiki:`) pages: policies linked from the footer and the sidebar. */
export const PROJECT_PAGES = ["About", "Privacy policy", "General disclaimer", "Community portal", "Data policy", "Upload guidelines", "Editors' handbook"];

/** Templates the articles transclude (listed on "View source" and "Page information"). */
export const TEMPLATES = ["Infobox dataset", "Infobox publication", "Cite web", "Stub", "Navbox", "Glossary term", "Main", "Update needed"];

/** Languages of the sister wikis articles link to (other hosts). */
export const SISTER_LANGUAGES: ReadonlyArray<readonly [string, string]> = [["de", "Deutsch"], ["fr", "Français"], ["es", "Español"], ["it", "Italiano"], ["pl", "Polski"]];
