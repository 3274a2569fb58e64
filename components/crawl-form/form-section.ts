import type { FieldErrors } from "@/lib/crawl-config";
import type { CrawlFormValues } from "./form-state";

/** What every section of the crawl form receives. */
export interface FormSectionProps {
  values: CrawlFormValues;
  set: <K extends keyof CrawlFormValues>(key: K, value: CrawlFormValues[K]) => void;
  errors: FieldErrors;
}
