/**
 * Documentation site vocabulary: the project (a Python library for statistical tables),
 * its API names, its narrative page titles and its example datasets. Pure functions of
 * integer seeds or of the model's Rng; ASCII only (names end up in URLs and file names).
 */
import { Rng } from "../random";

/** A simulated scientific Python project hosted on Read the Docs. */
export interface Project {
  /** Package and Read the Docs slug, e.g. "tabula". */
  name: string;
  /** Display name, e.g. "Tabula". */
  title: string;
  /** GitHub organisation. */
  org: string;
  tagline: string;
  /** First year of the copyright line. */
  since: number;
}

export const PROJECTS: readonly Project[] = [
  { name: "tabula", title: "Tabula", org: "tabula-dev", tagline: "labelled tables for official statistics", since: 2014 },
  { name: "statframe", title: "StatFrame", org: "statframe", tagline: "data frames with survey weights and metadata", since: 2016 },
  { name: "cubekit", title: "cubekit", org: "cubekit-project", tagline: "multidimensional statistical cubes in Python", since: 2015 },
  { name: "panelkit", title: "PanelKit", org: "panelkit", tagline: "panel and longitudinal data analysis", since: 2013 },
  { name: "sdmxio", title: "sdmxio", org: "sdmxio", tagline: "read and write SDMX statistical data and metadata", since: 2017 },
  { name: "censuskit", title: "CensusKit", org: "censuskit-org", tagline: "tools for census and register microdata", since: 2012 },
  { name: "popframe", title: "PopFrame", org: "popframe", tagline: "demographic tables and projections", since: 2018 },
  { name: "geotable", title: "GeoTable", org: "geotable-dev", tagline: "statistics on administrative geographies", since: 2016 },
];

/** Module short names and the titles of their reference pages (`tabula.<name>`). */
export const MODULES: ReadonlyArray<readonly [string, string]> = [
  ["io", "Input/output"], ["frame", "Frames"], ["series", "Series"], ["groupby", "GroupBy"], ["stats", "Statistics"],
  ["weights", "Survey weights"], ["survey", "Survey design"], ["timeseries", "Time series"], ["plotting", "Plotting"],
  ["datasets", "Datasets"], ["sdmx", "SDMX"], ["client", "Web API client"], ["geo", "Geographies"], ["window", "Window functions"],
  ["resample", "Resampling"], ["offsets", "Date offsets"], ["classification", "Classifications"], ["imputation", "Imputation"],
  ["disclosure", "Disclosure control"], ["indexing", "Index objects"], ["arrays", "Arrays"], ["dtypes", "Data types"],
  ["metadata", "Metadata"], ["seasonal", "Seasonal adjustment"], ["regression", "Regression"], ["sampling", "Sampling"],
  ["style", "Styling"], ["options", "Options and settings"], ["extensions", "Extensions"], ["interchange", "Interchange protocol"],
  ["linalg", "Linear algebra"], ["sparse", "Sparse data"], ["testing", "Testing"], ["errors", "Exceptions and warnings"],
  ["indicators", "Indicators"], ["calendar", "Calendars"], ["nowcast", "Nowcasting"], ["quality", "Data quality"],
  ["harmonise", "Harmonisation"], ["projections", "Projections"],
];

/** Subpackage names of very large APIs. */
export const SUBMODULES: readonly string[] = ["core", "formats", "tests", "utils", "base", "api", "internals", "experimental"];

const VERBS = [
  "read", "to", "load", "fetch", "compute", "estimate", "fit", "plot", "merge", "concat", "pivot", "melt", "resample",
  "aggregate", "filter", "describe", "validate", "infer", "convert", "parse", "format", "encode", "decode", "interpolate",
  "impute", "calibrate", "rake", "trim", "bootstrap", "jackknife", "check", "register", "get", "set", "reset", "summarize",
  "tabulate", "crosstab", "align", "reindex", "shift", "cut", "bin", "normalize", "scale", "forecast", "smooth", "decompose",
  "deflate", "rebase", "chain", "suppress", "round", "harmonise", "map", "lookup",
];

const NOUNS = [
  "csv", "excel", "json", "parquet", "sdmx", "stata", "spss", "sas", "sql", "table", "frame", "series", "index", "weights",
  "variance", "quantiles", "totals", "ratio", "mean", "median", "counts", "frequencies", "margins", "labels", "codes",
  "categories", "dimensions", "attributes", "metadata", "codelist", "dataflow", "dataset", "observations", "periods",
  "dates", "offsets", "calendar", "holidays", "regions", "geometry", "boundaries", "population", "sample", "strata",
  "clusters", "replicates", "design", "residuals", "trend", "seasonality", "outliers", "missing", "duplicates", "schema",
  "dtype", "options", "cells", "growth_rates", "index_numbers", "confidence_intervals", "hierarchy",
];

const CLASS_STEMS = [
  "Table", "Frame", "Series", "Survey", "Replicate", "Date", "Period", "Codelist", "Dataflow", "Region", "Cube", "Panel",
  "Weight", "Strata", "Sample", "Seasonal", "Trend", "Index", "Category", "Calendar", "Geo", "Quality", "Indicator", "Window",
];
const CLASS_SUFFIXES = [
  "Frame", "Index", "Design", "Client", "Reader", "Writer", "Estimator", "Grouper", "Offset", "Array", "Dtype", "Accessor",
  "Result", "Model", "Transformer", "Resampler", "Styler", "Registry", "Schema", "Store",
];

const METHODS = [
  "fit", "transform", "predict", "summary", "to_csv", "to_frame", "to_dict", "to_json", "to_excel", "to_parquet", "mean", "sum",
  "count", "std", "var", "quantile", "apply", "agg", "plot", "head", "tail", "copy", "describe", "get", "set_index",
  "reset_index", "sort_values", "drop", "rename", "fillna", "dropna", "astype", "merge", "join", "groupby", "resample",
  "rolling", "shift", "diff", "cumsum", "unique", "value_counts", "isna", "replace", "clip", "round", "pivot", "melt", "stack",
  "unstack", "query", "assign", "pipe", "items", "keys", "from_dict", "from_records", "read", "write", "close", "fetch",
  "validate", "weighted_mean", "weighted_total", "variance", "standard_error", "confint", "update", "register", "info",
];

/** A function name, `verb_noun`, from the model's Rng. */
export function functionName(r: Rng): string {
  const v = r.pick(VERBS);
  const n = r.pick(NOUNS);
  return v === "to" || v === "read" ? `${v}_${n}` : r.chance(0.15) ? `${v}_${n}_${r.pick(["by_group", "wide", "long", "inplace", "weighted"])}` : `${v}_${n}`;
}

/** A class name such as `SurveyDesign`; exceptions and warnings in the errors module. */
export function className(r: Rng, errors: boolean): string {
  if (errors) return `${r.pick(CLASS_STEMS)}${r.pick(["Error", "Error", "Warning", "Exception"])}`;
  return `${r.pick(CLASS_STEMS)}${r.pick(CLASS_SUFFIXES)}`;
}

export function methodName(r: Rng): string {
  return r.pick(METHODS);
}

/** User guide topics: [docname stem, title]. The first entries are the classic ones. */
export const GUIDE_TOPICS: ReadonlyArray<readonly [string, string]> = [
  ["io", "IO tools (text, CSV, Excel, SDMX)"], ["basics", "Essential basic functionality"], ["indexing", "Indexing and selecting data"],
  ["groupby", "Group by: split-apply-combine"], ["merging", "Merge, join and concatenate"], ["reshaping", "Reshaping and pivot tables"],
  ["missing_data", "Working with missing data"], ["timeseries", "Time series and date functionality"], ["weights", "Survey weights and calibration"],
  ["variance", "Variance estimation"], ["visualization", "Chart visualization"], ["categorical", "Categorical data"],
  ["metadata", "Statistical metadata"], ["sdmx", "Reading SDMX data"], ["api_client", "Querying the web API"],
  ["geographies", "Administrative geographies"], ["classifications", "Working with classifications"], ["seasonal", "Seasonal adjustment"],
  ["index_numbers", "Index numbers and chaining"], ["disclosure", "Statistical disclosure control"], ["window", "Windowing operations"],
  ["text", "Working with text data"], ["options", "Options and settings"], ["performance", "Enhancing performance"],
  ["scale", "Scaling to large datasets"], ["sparse", "Sparse data structures"], ["style", "Table styling"], ["copy_on_write", "Copy-on-write"],
  ["enhancing", "Extending the library"], ["gotchas", "Frequently asked questions"], ["cookbook", "Cookbook"], ["integer_na", "Nullable integer data type"],
  ["boolean", "Nullable Boolean data type"], ["duplicates", "Duplicate labels"], ["harmonisation", "Harmonising series"], ["quality", "Data quality checks"],
  ["imputation", "Imputation of missing values"], ["projections", "Population projections"], ["nowcasting", "Nowcasting"], ["regression", "Regression models"],
];

/** Tutorial titles (nbsphinx notebooks). */
export const TUTORIAL_TOPICS: readonly string[] = [
  "First steps with tables", "Reading and writing data files", "Selecting a subset of a table", "Creating plots",
  "Deriving new columns", "Summary statistics", "Reshaping the layout of tables", "Combining data from several tables",
  "Handling time series data", "Manipulating textual data", "Weighting a survey sample", "Working with SDMX data",
  "Mapping regional statistics", "Computing growth rates", "Seasonally adjusting a series", "Estimating variances with replicates",
  "Harmonising classifications", "Building a data pipeline", "Publishing tables", "Quality checks before release",
  "Population pyramids", "Small area estimation", "Index numbers from scratch", "Linking administrative registers",
];

export const HOWTO_TOPICS: readonly string[] = [
  "Read a large CSV file in chunks", "Convert an SDMX file to CSV", "Export a table to Excel with formatting",
  "Handle missing values in weights", "Query the API behind a proxy", "Cache API responses", "Compare two releases of a table",
  "Recode a classification", "Aggregate regions to a higher level", "Suppress small cells", "Deal with revised figures",
  "Add metadata to an export", "Parallelise a computation", "Read a Stata file with labels", "Plot a time series with annotations",
  "Migrate from version 1.x", "Debug slow group-by operations", "Validate a table against a schema", "Use the library in a notebook",
  "Schedule a nightly download", "Work with fiscal years", "Join on fuzzy region names",
];

const DATA_TOPICS = [
  "air_quality", "household_income", "regional_gdp", "unemployment", "births", "deaths", "census_sample", "road_traffic",
  "electricity_prices", "tourism_nights", "crop_yields", "school_enrolment", "hospital_admissions", "retail_sales",
  "migration_flows", "housing_starts", "co2_emissions", "water_quality", "bike_rentals", "weather_stations", "labour_force",
  "consumer_prices", "trade", "population", "business_demography", "energy_balance", "crime_recorded", "election_results",
  "wages", "rents", "broadband", "commuting", "life_expectancy", "fertility", "earnings", "vacancies", "investment", "pensions",
];
const DATA_QUALIFIERS = ["by_region", "monthly", "annual", "quarterly", "sample", "panel", "long", "wide", "2021", "2019", "daily", "by_age"];

/** A dataset's theme and stem, such as `air_quality` and `air_quality_monthly`. */
export function datasetStem(r: Rng): [string, string] {
  const topic = r.pick(DATA_TOPICS);
  return [topic, `${topic}_${r.pick(DATA_QUALIFIERS)}`];
}

/** "Air quality, monthly" from `air_quality_monthly`. */
export function humanize(stem: string): string {
  const t = stem.replace(/_/g, " ");
  return t.charAt(0).toUpperCase() + t.slice(1);
}

/** Gallery sub-sections: [folder, title]. */
export const GALLERY_GROUPS: ReadonlyArray<readonly [string, string]> = [
  ["io", "Reading and writing"], ["plotting", "Plotting"], ["statistics", "Statistics"], ["timeseries", "Time series"],
  ["maps", "Maps"], ["surveys", "Surveys"], ["api", "Web API"], ["advanced", "Advanced"],
];

const EXAMPLE_WORDS = [
  "bar_chart", "histogram", "line_plot", "boxplot", "heatmap", "choropleth", "population_pyramid", "scatter_matrix",
  "growth_rates", "seasonal_decomposition", "rolling_mean", "weighted_totals", "replicate_variance", "crosstab", "pivot",
  "sdmx_query", "api_pagination", "read_excel_sheets", "write_parquet", "calendar_effects", "index_chain", "small_multiples",
  "outlier_detection", "confidence_bands", "stacked_area", "lorenz_curve", "dot_plot", "regional_ranking",
];

/** A sphinx-gallery example stem (`plot_<words>`). */
export function exampleStem(r: Rng): string {
  return `plot_${r.pick(EXAMPLE_WORDS)}`;
}

/** Contributor names of the release notes (text only). */
export function contributorName(seed: number): string {
  const r = new Rng(seed);
  const first = ["Ana", "Ben", "Chen", "Dara", "Eli", "Fatou", "Goran", "Hana", "Ivo", "Jun", "Kemal", "Lea", "Mina", "Noor", "Omar", "Pia", "Raj", "Sofia", "Tomas", "Yuki"];
  const last = ["Garcia", "Nowak", "Li", "Okafor", "Schmidt", "Rossi", "Kim", "Dubois", "Silva", "Jensen", "Haddad", "Novak", "Sato", "Murphy", "Ivanova"];
  return `${r.pick(first)} ${r.pick(last)}`;
}
