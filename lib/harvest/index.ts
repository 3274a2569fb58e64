// Harvests: their reads and writes, one import for the API routes, pages and CLI.
export { getHarvest, listHarvests, type HarvestView } from "./get-harvest";
export { harvestForViewer } from "./harvest-for-viewer";
export { getHarvestEvents, type HarvestEventView } from "./get-harvest-events";
export { createHarvest, type CreateHarvestOptions } from "./create-harvest";
export { updateHarvest } from "./update-harvest";
export { deleteHarvest } from "./delete-harvest";
export { startHarvestRun, ACTIVE_RUN_STATUSES } from "./start-harvest-run";
export { addHarvestEvent, type HarvestEventKind } from "./add-harvest-event";
