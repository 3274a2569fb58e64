/**
 * Code forge vocabulary: the instance's name, organisations and people of a statistics
 * community, repository templates (data, code and documentation repositories with their
 * subjects, topics and languages), Gitea's default label set, commit messages, issue
 * titles and wiki page names. Everything ASCII; names follow Gitea's rules (letters,
 * digits, `-`, `_`, `.`), and none is one of Gitea's reserved top-level names.
 */
import type { Rng } from "../random";

export const FORGE_SITE_NAME = "Statistics Commons Git";
export const GITEA_VERSION = "1.21.11";

export interface OrgSeed {
  name: string;
  fullName: string;
  description: string;
  location: string;
}

export const ORGS: readonly OrgSeed[] = [
  { name: "census-lab", fullName: "Census Lab", description: "Open tools and tables around the population census.", location: "Lyon" },
  { name: "air-quality-network", fullName: "Air Quality Network", description: "Citizen and official air quality measurements.", location: "Grenoble" },
  { name: "budget-watch", fullName: "Budget Watch", description: "Municipal and regional budgets, machine-readable.", location: "Brussels" },
  { name: "election-data", fullName: "Election Data Collective", description: "Results of every election since 1958, cleaned.", location: "Paris" },
  { name: "stats-commons", fullName: "Statistics Commons", description: "The community's shared libraries and documentation.", location: "Online" },
  { name: "r-users-group", fullName: "R Users Group", description: "Packages and training material of the local R user group.", location: "Lille" },
  { name: "survey-methods", fullName: "Survey Methods Working Group", description: "Sampling, weighting and imputation code.", location: "Nantes" },
  { name: "open-transport", fullName: "Open Transport Data", description: "Traffic counts, ridership and road safety.", location: "Bordeaux" },
  { name: "health-indicators", fullName: "Health Indicators Initiative", description: "Hospital activity and public health indicators.", location: "Toulouse" },
  { name: "energy-stats", fullName: "Energy Statistics Forum", description: "Consumption and production by region and source.", location: "Strasbourg" },
  { name: "labour-market-lab", fullName: "Labour Market Lab", description: "Employment, wages and vacancies.", location: "Rennes" },
  { name: "datavis-guild", fullName: "Datavis Guild", description: "Dashboards and charts for official statistics.", location: "Montpellier" },
  { name: "water-observatory", fullName: "Water Observatory", description: "River levels, water quality and abstraction.", location: "Orleans" },
  { name: "education-figures", fullName: "Education Figures", description: "Enrolment, results and school resources.", location: "Dijon" },
  { name: "housing-monitor", fullName: "Housing Monitor", description: "Prices, rents and construction permits.", location: "Marseille" },
  { name: "sdmx-friends", fullName: "SDMX Friends", description: "Clients and converters for SDMX services.", location: "Luxembourg" },
  { name: "crime-statistics", fullName: "Crime Statistics Project", description: "Recorded offences by area, harmonised.", location: "Lille" },
  { name: "tourism-data", fullName: "Tourism Data Lab", description: "Overnight stays and capacity, monthly.", location: "Nice" },
  { name: "agri-stats", fullName: "Agricultural Statistics Network", description: "Crops, livestock and farm structure.", location: "Clermont" },
  { name: "demography-lab", fullName: "Demography Lab", description: "Births, deaths and migration estimates.", location: "Poitiers" },
];

const FIRST = ["anna", "jean", "lucia", "tomas", "emma", "karim", "sofia", "piotr", "ines", "marc", "ruth", "yann", "olga", "femi", "claire", "hugo", "nadia", "erik", "maya", "paul", "lea", "omar", "julia", "david", "sara", "victor", "nora", "felix", "irene", "samuel"];
const LAST = ["martin", "dupont", "nowak", "vandermeer", "brown", "okafor", "rossi", "garcia", "schmidt", "laurent", "kowalski", "moreau", "silva", "jensen", "petit", "haddad", "lambert", "novak", "fischer", "roux", "costa", "meyer", "bernard", "leroy", "berg"];

/** A Gitea username in one of the usual spellings (`amartin`, `anna.martin`, `anna-m`, `amartin42`). */
export function userName(r: Rng): { name: string; fullName: string } {
  const f = r.pick(FIRST);
  const l = r.pick(LAST);
  const fullName = `${cap(f)} ${cap(l)}`;
  const form = r.int(5);
  const name = form === 0 ? `${f[0]}${l}` : form === 1 ? `${f}.${l}` : form === 2 ? `${f}-${l[0]}` : form === 3 ? `${f}_${l}` : `${f[0]}${l}${10 + r.int(90)}`;
  return { name, fullName };
}

export const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export interface Language {
  name: string;
  color: string;
}

export const LANGUAGES: Readonly<Record<string, Language>> = {
  python: { name: "Python", color: "#3572A5" },
  r: { name: "R", color: "#198CE7" },
  js: { name: "JavaScript", color: "#f1e05a" },
  notebook: { name: "Jupyter Notebook", color: "#DA5B0B" },
  sql: { name: "PLpgSQL", color: "#336790" },
  css: { name: "CSS", color: "#563d7c" },
};

/** What a repository holds; decides its tree, its history and its units. */
export type RepoTemplate = "data" | "python" | "r" | "js" | "scripts" | "docs";

export interface DataSubject {
  /** Repository name stem. */
  repo: string;
  /** File name stem of its tables. */
  stem: string;
  title: string;
  topics: readonly string[];
  /** Table names inside one year's folder. */
  tables: readonly string[];
}

export const DATA_SUBJECTS: readonly DataSubject[] = [
  { repo: "census", stem: "population", title: "Population census tables", topics: ["census", "population", "open-data"], tables: ["population_by_age", "households", "dwellings", "commuting"] },
  { repo: "air-quality", stem: "aq", title: "Hourly and daily air quality measurements", topics: ["air-quality", "environment", "open-data"], tables: ["no2_daily", "pm10_daily", "o3_hourly", "stations"] },
  { repo: "municipal-budget", stem: "budget", title: "Voted and executed municipal budgets", topics: ["budget", "public-finance"], tables: ["expenditure", "revenue", "investment", "debt"] },
  { repo: "election-results", stem: "results", title: "Election results by polling station", topics: ["elections", "open-data"], tables: ["results_by_station", "turnout", "candidates"] },
  { repo: "household-survey", stem: "hbs", title: "Household budget survey, public use files", topics: ["survey", "households", "microdata"], tables: ["expenditure_coicop", "income", "weights"] },
  { repo: "labour-force", stem: "lfs", title: "Labour force survey quarterly indicators", topics: ["labour", "employment", "survey"], tables: ["employment_rate", "unemployment", "hours_worked"] },
  { repo: "traffic-counts", stem: "counts", title: "Automatic road traffic counts", topics: ["transport", "open-data"], tables: ["daily_counts", "sensors", "heavy_vehicles"] },
  { repo: "river-levels", stem: "levels", title: "River gauge levels and flows", topics: ["water", "environment"], tables: ["levels_daily", "flows_monthly", "gauges"] },
  { repo: "school-enrolment", stem: "enrolment", title: "Pupils by school, grade and sex", topics: ["education", "open-data"], tables: ["enrolment_by_school", "teachers", "exam_results"] },
  { repo: "hospital-activity", stem: "hospital", title: "Hospital stays, waiting times and beds", topics: ["health", "hospitals"], tables: ["stays", "waiting_times", "beds"] },
  { repo: "energy-balance", stem: "energy", title: "Regional energy balances", topics: ["energy", "environment"], tables: ["consumption_by_sector", "production_by_source", "prices"] },
  { repo: "recorded-crime", stem: "crime", title: "Recorded offences by police area", topics: ["crime", "justice"], tables: ["offences_by_area", "clearance_rates"] },
  { repo: "tourism-nights", stem: "tourism", title: "Overnight stays in tourist accommodation", topics: ["tourism"], tables: ["nights_by_region", "capacity", "arrivals_by_country"] },
  { repo: "farm-structure", stem: "farms", title: "Farm structure survey tables", topics: ["agriculture", "survey"], tables: ["holdings", "livestock", "crops_area"] },
  { repo: "housing-prices", stem: "housing", title: "House price index and transactions", topics: ["housing", "prices"], tables: ["price_index", "transactions", "permits"] },
  { repo: "vital-statistics", stem: "vital", title: "Births, deaths and marriages", topics: ["demography", "population"], tables: ["births", "deaths", "marriages"] },
  { repo: "wages-survey", stem: "wages", title: "Structure of earnings survey", topics: ["labour", "wages", "survey"], tables: ["earnings_by_occupation", "gender_gap"] },
  { repo: "water-quality", stem: "wq", title: "Water quality sampling results", topics: ["water", "environment", "open-data"], tables: ["samples", "sites", "nitrates"] },
];

export interface CodeSubject {
  repo: string;
  template: Exclude<RepoTemplate, "data" | "docs">;
  description: string;
  topics: readonly string[];
}

export const CODE_SUBJECTS: readonly CodeSubject[] = [
  { repo: "pystat-utils", template: "python", description: "Small helpers for official statistics in Python.", topics: ["python", "statistics"] },
  { repo: "sdmx-client", template: "python", description: "A minimal SDMX 2.1 REST client.", topics: ["sdmx", "python", "api"] },
  { repo: "seasonal-adjust", template: "python", description: "X-13 and TRAMO/SEATS wrappers.", topics: ["time-series", "python"] },
  { repo: "csvw-tools", template: "python", description: "Validate and describe CSV files with CSVW metadata.", topics: ["csv", "metadata"] },
  { repo: "indicator-pipeline", template: "python", description: "Builds the community indicators from source tables.", topics: ["pipeline", "open-data"] },
  { repo: "rsurvey", template: "r", description: "Survey weighting and variance estimation in R.", topics: ["r", "survey"] },
  { repo: "tidyelections", template: "r", description: "Tidy election results, ready for ggplot.", topics: ["r", "elections"] },
  { repo: "smallarea", template: "r", description: "Small area estimation models.", topics: ["r", "statistics"] },
  { repo: "budget-dashboard", template: "js", description: "Interactive dashboard of municipal budgets.", topics: ["dashboard", "budget", "dataviz"] },
  { repo: "aq-map", template: "js", description: "Live map of air quality stations.", topics: ["dashboard", "air-quality", "dataviz"] },
  { repo: "chart-kit", template: "js", description: "Accessible chart components for statistical releases.", topics: ["dataviz", "javascript"] },
  { repo: "census-scripts", template: "scripts", description: "Scripts used to prepare the census tables.", topics: ["census", "etl"] },
  { repo: "etl-jobs", template: "scripts", description: "Nightly ETL jobs for the indicator database.", topics: ["etl", "pipeline"] },
  { repo: "scraper", template: "scripts", description: "Scrapes publication calendars into a database.", topics: ["scraping"] },
  { repo: "anonymisation", template: "python", description: "Statistical disclosure control helpers.", topics: ["sdc", "python", "microdata"] },
  { repo: "geo-lookup", template: "python", description: "Area code lookups and boundary helpers.", topics: ["geography", "python"] },
];

export const DOCS_SUBJECTS: ReadonlyArray<{ repo: string; description: string; topics: readonly string[] }> = [
  { repo: "handbook", description: "The community handbook: how we work, publish and review.", topics: ["documentation"] },
  { repo: "methodology-notes", description: "Methodological notes behind the published indicators.", topics: ["methodology", "documentation"] },
  { repo: "style-guide", description: "Style guide for tables and charts.", topics: ["dataviz", "documentation"] },
  { repo: "training-materials", description: "Slides and exercises of our training sessions.", topics: ["training", "r", "python"] },
  { repo: "meetup-slides", description: "Slides of the monthly meetups.", topics: ["talks"] },
  { repo: "data-standards", description: "Code lists and file format conventions.", topics: ["metadata", "standards"] },
];

/** Gitea's "Default" label set (scoped labels: one per scope can be selected). */
export const LABEL_SET: ReadonlyArray<{ name: string; color: string; exclusive: boolean }> = [
  { name: "Kind/Bug", color: "#ee0701", exclusive: true },
  { name: "Kind/Feature", color: "#0288d1", exclusive: true },
  { name: "Kind/Documentation", color: "#37474f", exclusive: true },
  { name: "Kind/Data", color: "#009800", exclusive: true },
  { name: "Priority/High", color: "#b60205", exclusive: true },
  { name: "Priority/Low", color: "#c2e0c6", exclusive: true },
  { name: "Status/Need More Info", color: "#fbca04", exclusive: true },
  { name: "good first issue", color: "#7057ff", exclusive: false },
  { name: "data-quality", color: "#d93f0b", exclusive: false },
];

/** The scope of a scoped label ("Kind" of "Kind/Bug"); null when unscoped. */
export function labelScope(name: string, exclusive: boolean): string | null {
  const i = name.lastIndexOf("/");
  return exclusive && i > 0 ? name.slice(0, i) : null;
}

export const COMMIT_VERBS = ["Fix", "Update", "Refactor", "Add tests for", "Document", "Simplify", "Clean up", "Speed up"];
export const ISSUE_TITLES = [
  "Totals for %s do not add up", "Missing values in %s", "Please publish %s as CSV too", "Wrong unit in %s",
  "Add metadata for %s", "%s: column names changed between years", "Encoding problem in %s", "Broken link to %s",
  "Provide a data dictionary for %s", "Duplicate rows in %s", "Support Python 3.12", "Crash when the input is empty",
  "Document the %s options", "Add an example with %s", "Speed up reading of %s", "Deprecation warning from pandas",
];

export const WIKI_PAGES = ["Data-sources", "Methodology", "Release-process", "FAQ", "Contributing", "Glossary", "Changelog", "Meeting-notes", "Known-issues", "Roadmap"];

export const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
