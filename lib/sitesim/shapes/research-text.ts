/**
 * Research repository vocabulary: faculties with their departments and research topics,
 * person names, item titles. Pure functions of integer seeds; ASCII only, because
 * names end up in file names and Content-Disposition headers.
 */
import { Rng } from "../random";

export interface Faculty {
  name: string;
  depts: readonly string[];
  /** Research topics: item titles and subject keywords of the faculty draw on these. */
  topics: readonly string[];
  /** The archives community holds digitised photographs and historic theses, not research output. */
  archive?: boolean;
}

export const FACULTIES: readonly Faculty[] = [
  {
    name: "Faculty of Science",
    depts: ["Department of Physics", "Department of Chemistry", "Department of Biology", "Department of Mathematics", "Department of Earth Sciences", "Department of Computer Science"],
    topics: ["quantum materials", "soil microbiome", "protein folding", "graph neural networks", "coastal erosion", "catalysis", "number theory", "exoplanets", "gene regulation", "volcanic hazards", "machine learning", "climate models"],
  },
  {
    name: "Faculty of Medicine and Health",
    depts: ["School of Nursing", "Department of Public Health", "Department of Surgery", "Department of Psychiatry", "Institute of Infection and Immunity"],
    topics: ["cardiovascular risk", "antimicrobial resistance", "primary care", "mental health", "type 2 diabetes", "vaccine uptake", "palliative care", "health inequalities", "clinical trials", "COVID-19", "maternal health"],
  },
  {
    name: "Faculty of Arts and Humanities",
    depts: ["Department of History", "Department of Philosophy", "School of Modern Languages", "Department of English Literature", "Department of Music", "Department of Archaeology"],
    topics: ["medieval manuscripts", "early modern print", "ethics of care", "translation studies", "colonial archives", "romantic poetry", "digital humanities", "Roman Britain", "film music", "material culture"],
  },
  {
    name: "University Archives and Special Collections",
    depts: ["Photographic Archive", "Rare Books", "University History"],
    topics: ["campus history", "student life", "university buildings", "local history", "printed ephemera", "wartime records"],
    archive: true,
  },
  {
    name: "Faculty of Engineering",
    depts: ["Department of Civil Engineering", "Department of Mechanical Engineering", "Department of Electrical Engineering", "Department of Chemical Engineering", "School of Architecture"],
    topics: ["structural health monitoring", "wind turbines", "battery ageing", "power electronics", "additive manufacturing", "water treatment", "building energy", "robotics", "concrete durability", "smart grids"],
  },
  {
    name: "Faculty of Social Sciences",
    depts: ["Department of Sociology", "Department of Politics", "Department of Geography", "Department of Economics", "Department of Psychology"],
    topics: ["labour mobility", "housing policy", "electoral behaviour", "urban segregation", "welfare reform", "migration", "social networks", "inequality", "public opinion", "child development"],
  },
  {
    name: "Business School",
    depts: ["Department of Accounting and Finance", "Department of Marketing", "Department of Management"],
    topics: ["corporate governance", "supply chains", "consumer behaviour", "entrepreneurship", "financial regulation", "family firms", "sustainability reporting", "innovation management"],
  },
  {
    name: "School of Law",
    depts: ["Centre for Human Rights", "Centre for Commercial Law", "Criminology Unit"],
    topics: ["human rights law", "competition law", "criminal justice", "data protection", "international arbitration", "environmental law", "legal history", "sentencing"],
  },
  {
    name: "School of Education",
    depts: ["Department of Teacher Education", "Centre for Inclusive Education"],
    topics: ["teacher training", "early literacy", "inclusive schooling", "higher education", "assessment", "digital learning", "special educational needs"],
  },
  {
    name: "Institute for Environmental Research",
    depts: ["Centre for Ecology", "Centre for Hydrology", "Climate Change Unit"],
    topics: ["biodiversity loss", "river flooding", "peatland restoration", "air quality", "carbon accounting", "pollinators", "land use change", "drought"],
  },
  {
    name: "Faculty of Agriculture and Food",
    depts: ["Department of Animal Science", "Department of Crop Science", "Department of Food Science"],
    topics: ["dairy systems", "crop yield", "plant pathogens", "food security", "precision agriculture", "animal welfare", "soil fertility"],
  },
];

const SURNAMES = [
  "Smith", "Jones", "Williams", "Brown", "Taylor", "Davies", "Evans", "Wilson", "Thomas", "Johnson", "Roberts", "Walker",
  "Wright", "Robinson", "Thompson", "White", "Hughes", "Edwards", "Green", "Hall", "Wood", "Harris", "Lewis", "Martin",
  "Jackson", "Clarke", "Clark", "Turner", "Hill", "Scott", "Cooper", "Morris", "Ward", "Moore", "King", "Watson", "Baker",
  "Harrison", "Morgan", "Patel", "Young", "Allen", "Mitchell", "James", "Anderson", "Phillips", "Lee", "Bell", "Parker",
  "Davis", "Murphy", "Kelly", "Campbell", "Murray", "Kennedy", "Fraser", "Garcia", "Rodriguez", "Martinez", "Fernandes",
  "Silva", "Rossi", "Russo", "Bianchi", "Muller", "Schmidt", "Schneider", "Fischer", "Weber", "Dubois", "Bernard", "Moreau",
  "Laurent", "Nowak", "Kowalski", "Novak", "Jansen", "de Vries", "van Dijk", "Nielsen", "Hansen", "Larsen", "Andersson",
  "Johansson", "Virtanen", "Wang", "Li", "Zhang", "Liu", "Chen", "Yang", "Huang", "Zhao", "Wu", "Zhou", "Kim", "Park",
  "Choi", "Nguyen", "Tran", "Sato", "Suzuki", "Tanaka", "Singh", "Kumar", "Sharma", "Gupta", "Khan", "Ali", "Ahmed",
  "Hassan", "Ibrahim", "Okafor", "Mensah", "Mwangi", "Costa", "Pereira", "Santos", "Oliveira", "Popescu", "Ivanov",
];

const GIVEN = [
  "James", "John", "Robert", "Michael", "David", "Richard", "Thomas", "Daniel", "Paul", "Mark", "Andrew", "Peter",
  "Mary", "Patricia", "Jennifer", "Linda", "Elizabeth", "Susan", "Sarah", "Karen", "Emma", "Laura", "Anna", "Claire",
  "Sophie", "Rachel", "Helen", "Fiona", "Wei", "Jing", "Min", "Hiroshi", "Yuki", "Priya", "Rahul", "Aisha", "Omar",
  "Fatima", "Chinedu", "Kwame", "Amina", "Lucia", "Marco", "Giulia", "Hans", "Katrin", "Pierre", "Camille", "Piotr",
  "Agnieszka", "Lars", "Ingrid", "Mikko", "Joao", "Ana", "Carlos", "Elena", "Ivan", "Olga", "Sean", "Niamh", "Ewan",
];

const INITIALS = "ABCDEFGHJKLMNPRSTW";

/** A person's name as DSpace stores it: "Surname, Given" (sometimes with a middle initial). */
export function personName(rng: Rng, withInitial: boolean): string {
  const base = `${rng.pick(SURNAMES)}, ${rng.pick(GIVEN)}`;
  return withInitial ? `${base} ${rng.pick([...INITIALS])}.` : base;
}

/** "Smith" from "Smith, John": file names use it. */
export function surnameOf(name: string): string {
  return name.slice(0, name.indexOf(",")).replace(/ /g, "");
}

const METHODS = ["a mixed-methods study", "a longitudinal analysis", "a systematic review", "a case study", "a comparative perspective", "a modelling approach", "an experimental study", "a field survey"];
const PLACES = ["Scotland", "northern England", "the Baltic states", "East Africa", "the Andes", "rural Wales", "the Netherlands", "South-East Asia", "the Mediterranean", "Ontario", "West Bengal", "coastal Norway"];
const QUALIFIERS = ["Rethinking", "Measuring", "Modelling", "Understanding", "Mapping", "Governing", "Explaining", "Predicting"];

/** "1998-2006": a study period. */
function range(r: Rng): string {
  const from = 1980 + r.int(36);
  return `${from}-${from + 2 + r.int(9)}`;
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/**
 * An item title. `kind` picks the register: theses are "Essays on …", datasets
 * "Data for: …", photographs are captions.
 */
export function researchTitle(seed: number, topics: readonly string[], kind: "thesis" | "article" | "dataset" | "image"): string {
  const r = new Rng(seed);
  const a = r.pick(topics);
  let b = r.pick(topics);
  if (b === a) b = r.pick(topics);
  const form = r.int(5);
  if (kind === "image") return `${cap(a)}: photograph, ${1890 + r.int(90)}`;
  if (kind === "thesis" && form < 2) return `Essays on ${a} and ${b}`;
  const core =
    form === 0 ? `${cap(a)} and ${b}: evidence from ${r.pick(PLACES)}`
    : form === 1 ? `The role of ${a} in ${b}`
    : form === 2 ? `${r.pick(QUALIFIERS)} ${a}: ${r.pick(METHODS)}`
    : form === 3 ? `${cap(a)} in ${r.pick(PLACES)}, ${range(r)}`
    : `${r.pick(QUALIFIERS)} ${a} for ${b}`;
  return kind === "dataset" ? `Data for: ${core}` : core;
}

/** A journal name for article citations. */
export function journalName(seed: number, topics: readonly string[]): string {
  const r = new Rng(seed);
  const t = r.pick(topics);
  return r.chance(0.5) ? `Journal of ${cap(t)}` : `${cap(t)} Review`;
}
