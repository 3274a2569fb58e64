export { EvolvingCatalogue, SECTIONS, type CatalogueChanges, type CatalogueFile, type CatalogueOptions } from "./catalogue";
export { startEvolvingSite, type RunningEvolvingSite } from "./server";
