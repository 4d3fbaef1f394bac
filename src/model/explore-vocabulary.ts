// The cost explorer's words, said once: the dimensions a view groups and filters by, the range presets, the
// granularities and the metrics. The explorer's URL (src/explore/request.ts) and the config's saved views
// (src/config/views.ts) both read them here (the dimensions themselves are the semantic layer's, semantic.ts), so a view in the config and a link to /explore accept the same words.

import { DIMENSION_NAMES, type DimensionName } from './semantic.ts';

/** The dimensions, as the semantic layer declares them (semantic.ts). */
export const PLAIN_DIMENSIONS = DIMENSION_NAMES;
export type PlainDimension = DimensionName;

export const PRESETS = ['mtd', 'last-month', '7d', '30d', '90d', 'ytd'] as const;
export type Preset = (typeof PRESETS)[number];

export const GRANULARITIES = ['day', 'week', 'month'] as const;
export type Granularity = (typeof GRANULARITIES)[number];

export const METRICS = ['cost', 'gpu_hours'] as const;

/** What a grouping or a filter's dimension may be, in words: a plain dimension or an allocation category. */
export const ACCEPTED_DIMENSIONS = `${PLAIN_DIMENSIONS.join(', ')} or category:<name>`;
