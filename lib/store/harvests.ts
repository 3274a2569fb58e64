// Harvests (lib/harvest): the store's reads and writes, one import for the API routes.
export { getHarvest, listHarvests, type HarvestView } from "./queries/get-harvest";
export { harvestForViewer } from "./queries/harvest-for-viewer";
export { getHarvestEvents, type HarvestEventView } from "./queries/get-harvest-events";
export { createHarvest, type CreateHarvestOptions } from "./commands/create-harvest";
export { updateHarvest } from "./commands/update-harvest";
export { deleteHarvest } from "./commands/delete-harvest";
export { startHarvestRun, ACTIVE_RUN_STATUSES } from "./commands/start-harvest-run";
export { addHarvestEvent, type HarvestEventKind } from "./commands/add-harvest-event";
