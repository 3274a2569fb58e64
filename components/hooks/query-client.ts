import { QueryClient } from "@tanstack/react-query";

/** Live views poll on their own schedule; everything else may be a second old. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: { queries: { staleTime: 1_000, refetchOnWindowFocus: true, retry: 1 } },
  });
}
