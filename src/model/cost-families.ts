// The cost families of `cost` and the components each bills, with the words people read for them. The billing-source
// declarations (billing-sources/) say which API amount field becomes which [family, component]; this file says what
// a family and a component are called – in FOCUS columns, workbook labels and chart legends – and the order families
// are shown in. SQL gets both from files generated from here (dim_cost_component, int_billing_records… by
// generated-sql.ts; rpt_spend_daily_by_family by generated-report-sql.ts) and report definitions from columnHeading;
// hand-written SQL names a family only by its key ('pod'), which test/model/family-names.test.ts holds to this file.

/** A cost family: one billing route's kind of resource (DESIGN.md public SQL interface, `cost.family`). */
export interface CostFamilyDef {
  /** As people read it: "Pods", "Network Volumes" (FOCUS ServiceName, legends). */
  label: string;
  /** One resource of the family: "Pod", "Network Volume" (FOCUS ResourceType). */
  resourceType: string;
  /** FOCUS 1.2 ServiceCategory and ServiceSubcategory. */
  focusCategory: string;
  focusSubcategory: string;
}

export const COST_FAMILIES = {
  pod: { label: 'Pods', resourceType: 'Pod', focusCategory: 'Compute', focusSubcategory: 'Containers' },
  serverless: { label: 'Serverless', resourceType: 'Serverless Endpoint', focusCategory: 'Compute', focusSubcategory: 'Serverless Compute' },
  storage: { label: 'Network Volumes', resourceType: 'Network Volume', focusCategory: 'Storage', focusSubcategory: 'Files' },
  public_endpoint: { label: 'Public Endpoints', resourceType: 'Public Endpoint', focusCategory: 'AI and Machine Learning', focusSubcategory: 'Generative AI' },
  cluster: { label: 'Instant Clusters', resourceType: 'Instant Cluster', focusCategory: 'Compute', focusSubcategory: 'Other (Compute)' },
} as const satisfies Record<string, CostFamilyDef>;

export type CostFamily = keyof typeof COST_FAMILIES;

/** The families in the order reports and legends show them. */
export const FAMILIES = Object.keys(COST_FAMILIES) as [CostFamily, ...CostFamily[]];

/** What a component is called in a sentence ("Pods GPU – trainer-1"): FOCUS ChargeDescription. */
export const COMPONENT_LABELS = {
  gpu: 'GPU',
  cpu: 'CPU',
  disk: 'disk',
  fee: 'fee',
  standard: 'standard storage',
  high_performance: 'high-performance storage',
  networking: 'networking',
  usage: 'usage',
} as const;

/** An amount component of a family (`cost.component`). */
export type CostComponent = keyof typeof COMPONENT_LABELS;

export function isCostFamily(s: string): s is CostFamily {
  return Object.hasOwn(COST_FAMILIES, s);
}
