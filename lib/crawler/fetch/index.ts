export * from "./errors";
export * from "./types";
export { DEFAULT_USER_AGENT, HttpFetcher, httpFetcherOptionsSchema, parseMime, type HttpFetcherOptions } from "./http-fetcher";
export {
  DEFAULT_RETRY_POLICY,
  fetchWithRetry,
  parseRetryAfterMs,
  retryDelayMs,
  retryPolicySchema,
  shouldRetry,
  type AttemptRecord,
  type FetchWithRetryOptions,
  type RetryPolicy,
  type RetryPolicyOptions,
} from "./retry";
export {
  HostPoliteness,
  hostKey,
  hostPolitenessOptionsSchema,
  type AcquireOptions,
  type HostPolitenessOptions,
  type HostWait,
  type Release,
} from "./host-politeness";
export {
  ROBOTS_USER_AGENT_TOKEN,
  RobotsCache,
  robotsCacheOptionsSchema,
  robotsFetchFor,
  type RobotsCacheOptions,
  type RobotsFetch,
  type RobotsRules,
  type RobotsStatus,
} from "./robots";
export {
  addressRange,
  agentOptionsSchema,
  assertFetchableUrl,
  checkAddress,
  createAgent,
  createSafeLookup,
  isPublicAddress,
  networkPolicyOf,
  urlPort,
  type AgentOptions,
} from "./network-safety";
export { isMetadataAddress, METADATA_ADDRESSES } from "./address-ranges";
export { canonicalCidrs, CidrError, NetworkPolicy, parseCidr, parseNetworkEntry, splitCidrList, type NetworkEntry, type NetworkPolicyOptions } from "./network-policy";
export { splitNetworkList } from "./network-list";
